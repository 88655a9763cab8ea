package bottlenecks.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * What instrumented methods call (mode=calltree, docs/recorder.md). Each instrumented method
 * keeps two locals of its own, the thread's tree and its frame's node:
 *
 * <pre>
 *   ThreadTree tree = Probe.enter(id);    // first instructions
 *   int node = tree.current;              // the frame's node
 *   ...
 *   Probe.exit(tree, node);               // before every return, and in a catch-all handler
 *                                         // that rethrows
 *   Probe.caught(tree, node);             // first thing in each of the method's own handlers
 * </pre>
 *
 * One thread-local lookup per call, not one per event (Luce, seed 002 sec. 7.1, passes its
 * context in a local the same way), and the node makes every exit exact by construction: exit
 * returns the tree to the frame's caller whatever was left open above it, and a handler that
 * catches an exception returns it to its own frame (an exception thrown by a super constructor
 * leaves a constructor's frame without any exit probe: the verifier forbids a handler over the
 * super() call, MethodProbe).
 *
 * <p>All are static and call nothing the transformer may instrument: no JNI and no lock per
 * event (issue 15: a JNI call per event measured 62x on a micro-benchmark). {@code enter} and
 * {@code exit} are deliberately never inlined ({@link DontInline}, which HotSpot honours in
 * boot-loader classes such as this one): inlined, their bodies (the thread-local lookup, the
 * clock, the child lookup) were copied into every instrumented method and into every method
 * that inlines one, three times per method (entry, return, the catch-all handler); on javac C2
 * then compiled six times the machine code, inlined less of the program, and its thread took
 * more CPU than the program's own (docs/performance.md, "Call-tree mode"). Out of line, a call
 * measured no slower, and C2's machine code and CPU fell by half or more. This class is
 * on the boot class path so that instrumented JDK classes can reach it.
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

  /**
   * An instrumented method starts; {@code method} is its id from {@link MethodNames}. Returns
   * the calling thread's tree (looked up once per call), whose current node is now the method's
   * frame.
   */
  @DontInline
  public static ThreadTree enter(int method) {
    ThreadTree tree = TREES.get();
    tree.enter(method);
    return tree;
  }

  /** The method whose frame is {@code node} returns or lets an exception escape. */
  @DontInline
  public static void exit(ThreadTree tree, int node) {
    tree.exit(node);
  }

  /** One of the method's own exception handlers starts: the method runs again. */
  public static void caught(ThreadTree tree, int node) {
    tree.caught(node);
  }

  /**
   * Until {@link #resume}, the calls that start on this thread go to a throwaway tree: the
   * transformer runs on the thread loading a class, and the JDK methods it uses (java.util, when
   * instrumented) must not appear in the program's profile. Swapping the tree costs the events
   * nothing; a flag tested at every event would.
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
