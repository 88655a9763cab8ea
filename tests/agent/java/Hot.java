// A CPU-bound program whose known hot path (Hot.hot) should dominate the main thread's samples.
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

  public static void main(String[] args) {
    long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    while (System.nanoTime() < end) {
      sink += hot(1_000_000);
      sink += cold(1_000_000);
    }
  }
}
