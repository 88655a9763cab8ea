import java.util.concurrent.CyclicBarrier;

// Seed 003's first example: two workers of unequal length, joined at the end of each round.
// A profiler shows both hot; speeding the short one gains nothing, and speeding the long one
// gains until it is as short as the short one. Each round is one unit of progress
// (CausalRounds.roundDone); the barriers wait in java.util.concurrent (Unsafe.park).
//
//   java CausalRounds SECONDS [LONG_WORK SHORT_WORK]   (work in units; default 2000 and 1000)
public class CausalRounds {
  static volatile long sink;

  static long spin(long units) {
    long s = 0;
    for (long u = 0; u < units; u++)
      for (int i = 0; i < 1000; i++) s = s * 31 + i;
    return s;
  }

  static void longWork(long units) { sink += spin(units); }

  static void shortWork(long units) { sink += spin(units); }

  static void roundDone() {}

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    long longUnits = args.length > 1 ? Long.parseLong(args[1]) : 2000;
    long shortUnits = args.length > 2 ? Long.parseLong(args[2]) : 1000;
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    CyclicBarrier start = new CyclicBarrier(3);
    CyclicBarrier end = new CyclicBarrier(3);
    boolean[] stop = {false};
    Thread a = new Thread(() -> loop(start, end, stop, () -> longWork(longUnits)), "long-worker");
    Thread b = new Thread(() -> loop(start, end, stop, () -> shortWork(shortUnits)), "short-worker");
    a.start();
    b.start();
    long rounds = 0;
    while (true) {
      stop[0] = System.nanoTime() > deadline;
      start.await();
      if (stop[0]) break;
      end.await();
      roundDone();
      rounds++;
    }
    a.join();
    b.join();
    System.out.println(rounds + " rounds");
  }

  static void loop(CyclicBarrier start, CyclicBarrier end, boolean[] stop, Runnable work) {
    try {
      while (true) {
        start.await();
        if (stop[0]) return;
        work.run();
        end.await();
      }
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }
}
