package bottlenecks.runtime;

import jdk.internal.vm.annotation.DontInline;

/**
 * What one call costs the program under the probes (enter and exit, the thread-local lookup
 * and the two calls included), measured on a private tree and thread-local so nothing reaches the profile. The
 * agent multiplies it by the calls it drains to estimate its overhead for maxoverhead= (DYPER,
 * seed 001 sec. 3: detailing stops before it costs more than the user allows). The fastest of
 * a few rounds, after the JIT has compiled the loop: an estimate of the steady state, which
 * misses the probes' effect on the program's own inlining.
 */
public final class Calibration {
  private Calibration() {}

  /** Picoseconds per instrumented call. */
  public static long picosPerCall() {
    ThreadLocal<ThreadTree> local = new ThreadLocal<ThreadTree>();
    local.set(new ThreadTree(null, 0));
    final int calls = 200_000;
    long best = Long.MAX_VALUE;
    for (int round = 0; round < 8; round++) {
      long start = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        ThreadTree tree = enter(local, i & 15);
        exit(tree, tree.current);
      }
      best = Math.min(best, System.nanoTime() - start);
    }
    local.remove();
    return best * 1000 / calls;
  }

  // Probe.enter and Probe.exit on the private thread-local: calls that are never inlined, as the
  // probes' are.
  @DontInline
  private static ThreadTree enter(ThreadLocal<ThreadTree> local, int method) {
    ThreadTree tree = local.get();
    tree.enter(method);
    return tree;
  }

  @DontInline
  private static void exit(ThreadTree tree, int node) {
    tree.exit(node);
  }
}
