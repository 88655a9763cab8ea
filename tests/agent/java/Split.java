// main splits each round of its work between Split.seventy and Split.thirty, 70 to 30: the two
// run the same loop body (a chain of dependent multiplications, so its speed does not depend
// on where the JIT puts it), 700 and 300 times.
public class Split {
  static volatile long sink;

  static long seventy(long x) {
    for (int i = 0; i < 700; i++) x = x * 0x9E3779B97F4A7C15L + i;
    return x;
  }

  static long thirty(long x) {
    for (int i = 0; i < 300; i++) x = x * 0x9E3779B97F4A7C15L + i;
    return x;
  }

  public static void main(String[] args) {
    long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    long x = 1;
    while (System.nanoTime() < end) {
      for (int round = 0; round < 1000; round++) x = thirty(seventy(x));
    }
    sink = x;
  }
}
