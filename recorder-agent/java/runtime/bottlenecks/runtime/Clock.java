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
 *
 * <p>The thread lives from {@link #startTicking} to {@link #stopTicking}, which the agent calls
 * when the recording ends: after duration= or maxoverhead= the program runs on at full speed,
 * and a thread waking every millisecond for the rest of a server's life would cost it context
 * switches and keep a CPU out of deep idle. Frames still running instrumented code then read
 * {@code System.nanoTime()}, never behind a tick they read before: their times stay
 * non-negative.
 */
public final class Clock {
  private Clock() {}

  // How long stopTicking waits for the ticker to end: a ticker the JVM keeps from running (a
  // debugger suspended it) must not hold up the end of the recording, which the JVM's exit waits
  // for. Left behind, its ticks are read by nobody, and it leaves its loop once it runs again.
  private static final long END_WAIT_MILLIS = 10_000;

  private static volatile boolean ticking;
  private static volatile long tick = System.nanoTime();
  // The one thread that may update tick, or null; written under Clock's lock.
  private static volatile Thread ticker;

  /** Now, for the probes. */
  static long now() {
    return ticking ? tick : System.nanoTime();
  }

  /**
   * clock=tick with this period in milliseconds; called by the agent before any class is
   * instrumented (without it the clock is exact). A ticker already running is stopped first, so
   * one thread ticks however often a recording starts in this JVM.
   */
  public static synchronized void startTicking(final long periodMillis) {
    stopTicking();
    tick = System.nanoTime();
    // An anonymous class, not a lambda (Probe explains why), running java.lang only: nothing on
    // this thread calls a probe.
    Thread thread =
        new Thread("bottlenecks-clock") {
          @Override
          public void run() {
            while (ticker == this) {
              try {
                Thread.sleep(periodMillis);
              } catch (InterruptedException e) {
                // stopTicking's, or the program's (one that interrupts every thread): only the
                // loop's condition ends the clock.
              }
              tick = System.nanoTime();
            }
          }
        };
    thread.setDaemon(true);
    ticker = thread;
    thread.start();
    ticking = true;
  }

  /**
   * Back to {@code System.nanoTime()} for the probes, and the ticker ends (when the recording
   * ends); nothing if no ticker runs.
   */
  public static synchronized void stopTicking() {
    Thread thread = ticker;
    if (thread == null) return;
    ticking = false;
    ticker = null;
    thread.interrupt();
    try {
      thread.join(END_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
