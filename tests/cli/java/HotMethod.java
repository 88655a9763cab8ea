// A program whose CPU time is almost all in one method, HotMethod.spin, for recording with JFR
// (tests/cli/jfr_test.sh) and checking that the import puts that method on top.
public final class HotMethod {
  static volatile long sink;

  static long spin(long rounds) {
    long x = 1;
    for (long i = 0; i < rounds; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  public static void main(String[] args) {
    final long until = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    while (System.nanoTime() < until) sink += spin(1_000_000);
  }
}
