import java.util.concurrent.CyclicBarrier;

// A parallel phase and a serial phase of equal length, one after the other in each round: two
// threads do `parallelWork` at once, then one of them does `serialWork` alone for as long. Virtual
// speedup must treat both alike: speeding either by s shortens the round by s x its length, so
// their curves agree (Coz, sec. 3: delays cancel in code that every thread runs at once). Each
// round is one unit of progress (CausalPhases.roundDone).
//
//   java CausalPhases SECONDS [PARALLEL_UNITS SERIAL_UNITS]   (work of each phase; default 1000 each)
public class CausalPhases {
  static volatile long sink;

  static long spin(long units) {
    long s = 0;
    for (long u = 0; u < units; u++)
      for (int i = 0; i < 1000; i++) s = s * 31 + i;
    return s;
  }

  static void parallelWork(long units) { sink += spin(units); }

  static void serialWork(long units) { sink += spin(units); }

  static void roundDone() {}

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    long parallelUnits = args.length > 1 ? Long.parseLong(args[1]) : 1000;
    long serialUnits = args.length > 2 ? Long.parseLong(args[2]) : 1000;
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    CyclicBarrier start = new CyclicBarrier(2);
    CyclicBarrier end = new CyclicBarrier(2);
    boolean[] stop = {false};
    Thread helper =
        new Thread(
            () -> {
              try {
                while (true) {
                  start.await();
                  if (stop[0]) return;
                  parallelWork(parallelUnits);
                  end.await();
                }
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            },
            "parallel-helper");
    helper.start();
    long rounds = 0;
    while (true) {
      stop[0] = System.nanoTime() > deadline;
      start.await();
      if (stop[0]) break;
      parallelWork(parallelUnits);
      end.await();
      serialWork(serialUnits);
      roundDone();
      rounds++;
    }
    helper.join();
    System.out.println(rounds + " rounds");
  }
}
