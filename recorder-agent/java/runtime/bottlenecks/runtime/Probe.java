package bottlenecks.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * What instrumented methods call (mode=calltree, docs/recorder.md). Each instrumented method
 * keeps its frame's node in a local of its own:
 *
 * <pre>
 *   int node = Probe.enter(id);           // first instructions
 *   ...
 *   Probe.exit(node);                     // before every return, and in a catch-all handler
 *                                         // that rethrows
 *   Probe.caught(node);                   // first thing in each of the method's own handlers
 * </pre>
 *
 * The node makes every exit exact by construction: exit returns the tree to the frame's caller
 * whatever was left open above it, and a handler that catches an exception returns it to its own
 * frame (an exception thrown by a super constructor leaves a constructor's frame without any exit
 * probe: the verifier forbids a handler over the super() call, MethodProbe). Each event looks
 * the thread's tree up (CurrentTree): keeping it in a second local, as Luce does (seed 002 sec.
 * 7.1) and this class did, saved a lookup per exit but made C2 carry one more object across
 * every call of every instrumented method (bench/LOG.md, "Fifth round").
 *
 * <p>All are static and call nothing the transformer may instrument: no JNI and no lock per
 * event (a JNI call per event measured 62x on a micro-benchmark). {@code enter} and
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

  /**
   * An instrumented method starts; {@code method} is its id from {@link MethodNames}. Returns
   * its frame's node, now the current node of the calling thread's tree.
   */
  @DontInline
  public static int enter(int method) {
    return CurrentTree.get().enter(method);
  }

  /** The method whose frame is {@code node} returns or lets an exception escape. */
  @DontInline
  public static void exit(int node) {
    CurrentTree.get().exit(node);
  }

  /** One of the method's own exception handlers starts: the method runs again. */
  public static void caught(int node) {
    CurrentTree.get().caught(node);
  }

  /**
   * Until {@link #resume}, the calls that start on this thread go to a throwaway tree: the
   * transformer runs on the thread loading a class, and the JDK methods it uses (java.util, when
   * instrumented) must not appear in the program's profile. Swapping the tree costs the events
   * nothing; a flag tested at every event would.
   */
  public static Object pause() {
    return CurrentTree.replace(ThreadTree.throwaway(null));
  }

  /** Ends {@link #pause}; {@code recording} is what it returned. */
  public static void resume(Object recording) {
    CurrentTree.restore((ThreadTree) recording);
  }
}
