// A program whose CPU time is almost all in one method, HotMethod.spin, for recording with JFR
// (tests/cli/formats_test.sh) and checking that the import puts that method on top. It runs for
// MILLIS ms of its own thread's CPU time, not of wall time: on a loaded machine a wall-time
// bound can end the program before JFR's sampler has seen it running more than a few times.
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public final class HotMethod {
  static volatile long sink;

  static long spin(long rounds) {
    long x = 1;
    for (long i = 0; i < rounds; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  public static void main(String[] args) {
    final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    final long cpuNanos = Long.parseLong(args[0]) * 1_000_000L;
    while (threads.getCurrentThreadCpuTime() < cpuNanos) sink += spin(1_000_000);
  }
}
