// Detailing (issue 15): a hot method found by sampling, a colder one, and a count of the hot
// method's calls, printed at exit, that the detailed call tree must match exactly.
//
//   java Detailed MILLISECONDS
public class Detailed {
  static volatile long sink;

  static long hot(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += (i * 31L) ^ (s >>> 3);
    return s;
  }

  static long cold(int n) {
    long s = 0;
    for (int i = 0; i < n / 10; i++) s += (i * 17L) ^ (s >>> 5);
    return s;
  }

  public static void main(String[] args) {
    long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    long hotCalls = 0;
    while (System.nanoTime() < end) {
      sink += hot(200_000);
      hotCalls++;
      sink += cold(200_000);
    }
    System.out.println(hotCalls);
  }
}
