// A CPU-bound program whose known hot path (Hot.hot) should dominate the main thread's samples.
// Prints how many times it called hot(), which the call-tree mode's detailing test must match.
//
//   java Hot MILLIS [SLEEP_MILLIS]    (runs for MILLIS, after sleeping SLEEP_MILLIS)
public class Hot {
  static volatile long sink;

  static long hot(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += (i * 31L) ^ (s >>> 3);
    return s;
  }

  static long cold(int n) {
    long s = 0;
    for (int i = 0; i < n / 20; i++) s += (i * 31L) ^ (s >>> 3);
    return s;
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length > 1) Thread.sleep(Long.parseLong(args[1]));
    long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    long hotCalls = 0;
    while (System.nanoTime() < end) {
      sink += hot(1_000_000);
      hotCalls++;
      sink += cold(1_000_000);
    }
    System.out.println(hotCalls);
  }
}
