// Threads contending for one monitor: each loop does a little work of its own, then `critical`
// inside `synchronized (LOCK)`. The monitor serialises the program, so speeding the critical
// section speeds everything, though a sampler sees each thread in it only a fraction of the
// time (the others wait at the monitor): its payoff exceeds its cost share. Each completed loop
// is one unit of progress (CausalContention.itemDone).
//
//   java CausalContention SECONDS [THREADS CRITICAL_UNITS OWN_UNITS]   (default 4, 200, 20)
public class CausalContention {
  static final Object LOCK = new Object();
  static volatile long sink;

  static long spin(long units) {
    long s = 0;
    for (long u = 0; u < units; u++)
      for (int i = 0; i < 1000; i++) s = s * 31 + i;
    return s;
  }

  static void critical(long units) { sink += spin(units); }

  static void ownWork(long units) { sink += spin(units); }

  static void itemDone() {}

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    long criticalUnits = args.length > 2 ? Long.parseLong(args[2]) : 200;
    long ownUnits = args.length > 3 ? Long.parseLong(args[3]) : 20;
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long[] done = new long[threads];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int me = t;
      workers[t] =
          new Thread(
              () -> {
                while (System.nanoTime() < deadline) {
                  ownWork(ownUnits);
                  synchronized (LOCK) {
                    critical(criticalUnits);
                  }
                  itemDone();
                  done[me]++;
                }
              },
              "worker-" + t);
      workers[t].start();
    }
    long total = 0;
    for (int t = 0; t < threads; t++) {
      workers[t].join();
      total += done[t];
    }
    System.out.println(total + " items");
  }
}
