import java.lang.reflect.Method;

// The probes' clock thread (bottlenecks-clock, Clock.java) under mode=calltree's default
// clock=tick, which starts it before main. Every wait is bounded at 30 s and nothing else is timed.
//
//   java ClockThread ends     (with duration=) exits 0 once the recording has ended and the
//                             clock thread with it, 1 if one still runs after 30 s
//   java ClockThread restart  stops and starts the clock again (Clock's methods, by reflection:
//                             the runtime is on the boot class path); exits 0 if exactly one clock
//                             thread runs after each start and none after the stop, 1 otherwise
//
// Exit status 2: no clock thread at start.
public class ClockThread {
  static final String NAME = "bottlenecks-clock";
  static final long BOUND_NANOS = 30_000_000_000L;

  static int clockThreads() {
    int n = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().equals(NAME)) n++;
    }
    return n;
  }

  // Waits until `expected` clock threads run, for at most 30 s.
  static boolean reaches(int expected) throws InterruptedException {
    long deadline = System.nanoTime() + BOUND_NANOS;
    while (clockThreads() != expected) {
      if (System.nanoTime() > deadline) {
        System.out.println(clockThreads() + " clock threads, expected " + expected);
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  public static void main(String[] args) throws Exception {
    if (clockThreads() != 1) System.exit(2);
    boolean ok;
    if (args[0].equals("ends")) {
      ok = reaches(0);
    } else {
      Class<?> clock = Class.forName("bottlenecks.runtime.Clock");
      Method start = clock.getMethod("startTicking", long.class);
      Method stop = clock.getMethod("stopTicking");
      stop.invoke(null);
      ok = reaches(0);
      start.invoke(null, 1L);
      ok = ok && reaches(1);
      start.invoke(null, 1L); // a start while ticking replaces the ticker
      ok = ok && reaches(1);
      stop.invoke(null);
      stop.invoke(null); // a second stop does nothing
      ok = ok && reaches(0);
      start.invoke(null, 1L);
      ok = ok && reaches(1);
    }
    System.exit(ok ? 0 : 1);
  }
}
