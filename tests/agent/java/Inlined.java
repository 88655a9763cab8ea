// main spends its time in Inlined.mix, a small method that the JIT inlines into Inlined.loop.
public class Inlined {
  static volatile long sink;

  // A chain of dependent multiplications: almost every cycle waits on it, so almost every
  // instruction the thread is caught at belongs to this method, wherever the JIT puts it.
  static long mix(long x) {
    x = x * 0x9E3779B97F4A7C15L + 1;
    x = x * 0xBF58476D1CE4E5B9L + 3;
    x = x * 0x94D049BB133111EBL + 5;
    x = x * 0x9E3779B97F4A7C15L + 7;
    x = x * 0xBF58476D1CE4E5B9L + 11;
    x = x * 0x94D049BB133111EBL + 13;
    return x;
  }

  static long loop(long seed, int n) {
    for (int i = 0; i < n; i++) seed = mix(seed ^ i);
    return seed;
  }

  public static void main(String[] args) {
    long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
    long seed = 1;
    while (System.nanoTime() < end) seed = loop(seed, 1_000_000);
    sink = seed;
  }
}
