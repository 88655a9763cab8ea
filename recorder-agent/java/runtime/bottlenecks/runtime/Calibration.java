package bottlenecks.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * What one call costs the program under the probes (enter and exit, the lookups of the
 * thread's tree and the two calls included), measured on a private tree so nothing reaches the
 * profile. The
 * agent multiplies it by the calls it drains to estimate its overhead for maxoverhead= (DYPER,
 * seed 001 sec. 3: detailing stops before it costs more than the user allows). The fastest of
 * a few rounds, after the JIT has compiled the loop: an estimate of the steady state, which
 * misses the probes' effect on the program's own inlining.
 */
public final class Calibration {
  private Calibration() {}

  /** Picoseconds per instrumented call. */
  public static long picosPerCall() {
    Thread thread = Thread.currentThread();
    // Memory of its own, freed below (16 children of the root fit): serial 0, not registered,
    // never read by the flusher.
    final int nodes = 64;
    long base = Nodes.allocate(nodes);
    ThreadTree tree = new ThreadTree(thread, 0, base, nodes);
    ThreadTree[] slots = new ThreadTree[CurrentTree.SLOTS];
    int slot = CurrentTree.slot(thread, slots.length);
    if (slot >= 0) slots[slot] = tree;
    final int calls = 200_000;
    long best = Long.MAX_VALUE;
    for (int round = 0; round < 8; round++) {
      long start = System.nanoTime();
      for (int i = 0; i < calls; i++) exit(slots, tree, enter(slots, tree, i & 15));
      best = Math.min(best, System.nanoTime() - start);
    }
    Nodes.U.freeMemory(base);
    return best * 1000 / calls;
  }

  // Probe.enter and Probe.exit on the private tree, found in private slots as the probes find the
  // thread's (CurrentTree): calls that are never inlined, as the probes' are.
  @DontInline
  private static int enter(ThreadTree[] slots, ThreadTree tree, int method) {
    ThreadTree found = CurrentTree.inSlot(slots, Thread.currentThread());
    return (found != null ? found : tree).enter(method);
  }

  @DontInline
  private static void exit(ThreadTree[] slots, ThreadTree tree, int node) {
    ThreadTree found = CurrentTree.inSlot(slots, Thread.currentThread());
    (found != null ? found : tree).exit(node);
  }
}
