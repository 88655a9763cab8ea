package bottlenecks.runtime;

/**
 * What instrumented methods call (mode=calltree, docs/recorder.md): {@code enter(id)} first,
 * {@code exit()} before every return and in a catch-all handler that rethrows. Both are static,
 * small and call nothing the transformer may instrument, so the JIT inlines them into the
 * instrumented method: no JNI and no lock per event (issue 15: a JNI call per event measured
 * 62x on a micro-benchmark).
 *
 * <p>This class is on the boot class path so that instrumented JDK classes can reach it.
 */
public final class Probe {
  private Probe() {}

  // An anonymous class, not ThreadLocal.withInitial(lambda): a lambda would bootstrap
  // java.lang.invoke at the first call, from whatever instrumented method that is.
  private static final ThreadLocal<ThreadTree> TREES =
      new ThreadLocal<ThreadTree>() {
        @Override
        protected ThreadTree initialValue() {
          return Registry.register(Thread.currentThread());
        }
      };

  /** An instrumented method starts; {@code method} is its id from {@link MethodNames}. */
  public static void enter(int method) {
    TREES.get().enter(method);
  }

  /** An instrumented method returns or lets an exception escape. */
  public static void exit() {
    TREES.get().exit();
  }

  /**
   * Until {@link #resume}, this thread's events go to a throwaway tree: the transformer runs on
   * the thread loading a class, and the JDK methods it uses (java.util, when instrumented) must
   * not appear in the program's profile. Swapping the tree costs the events nothing; a flag
   * tested at every event would.
   */
  public static Object pause() {
    ThreadTree recording = TREES.get();
    TREES.set(new ThreadTree(null, 0));
    return recording;
  }

  /** Ends {@link #pause}; {@code recording} is what it returned. */
  public static void resume(Object recording) {
    TREES.set((ThreadTree) recording);
  }
}
