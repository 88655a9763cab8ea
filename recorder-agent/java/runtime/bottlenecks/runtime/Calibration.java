package bottlenecks.runtime;

/**
 * What one call costs the program under the probes (enter and exit, the thread-local lookup
 * included), measured on a private tree and thread-local so nothing reaches the profile. The
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
        ThreadTree tree = local.get();
        tree.exit(tree.enter(i & 15));
      }
      best = Math.min(best, System.nanoTime() - start);
    }
    local.remove();
    return best * 1000 / calls;
  }
}
