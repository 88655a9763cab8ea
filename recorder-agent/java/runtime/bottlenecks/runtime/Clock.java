package bottlenecks.runtime;

/**
 * The probes' clock (option clock=, docs/recorder.md "Time keeping").
 *
 * <p>{@code exact}: every entry and exit reads {@code System.nanoTime()}, so every exclusive time
 * is exact; two clock reads are most of what a call costs under the probes (docs/performance.md,
 * "Call-tree mode": ~33 ns each on a kvm-clock virtual machine).
 *
 * <p>{@code tick}: a daemon thread stores {@code System.nanoTime()} in {@link #tick} every
 * period, and the probes read that field instead. A probe still charges "now minus the previous
 * event" to the node that was current in between, so each tick's interval (from the tick before)
 * goes whole to the calling context that was current at the instant of the tick: sampling at
 * the tick period, attributed to the exact calling context with no skid, the weight of a sample
 * being the real time since the previous tick (a late tick weighs more). Per thread the times
 * still add up to the time between its first and last event to within a period; call counts
 * stay exact; only how time divides among calling contexts becomes an estimate.
 */
public final class Clock {
  private Clock() {}

  private static volatile boolean ticking;
  private static volatile long tick = System.nanoTime();

  /** Now, for the probes. */
  static long now() {
    return ticking ? tick : System.nanoTime();
  }

  /**
   * clock=tick with this period in milliseconds; called by the agent before any class is
   * instrumented (without it the clock is exact).
   */
  public static void startTicking(final long periodMillis) {
    tick = System.nanoTime();
    // An anonymous class, not a lambda (Probe explains why), running java.lang only: nothing on
    // this thread calls a probe.
    Thread ticker =
        new Thread("bottlenecks-clock") {
          @Override
          public void run() {
            while (true) {
              try {
                Thread.sleep(periodMillis);
              } catch (InterruptedException e) {
                // Only the JVM's end stops the clock.
              }
              tick = System.nanoTime();
            }
          }
        };
    ticker.setDaemon(true);
    ticker.start();
    ticking = true;
  }
}
