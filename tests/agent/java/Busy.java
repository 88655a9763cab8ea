// N busy threads (args[0]) spinning for args[1] ms: more threads than CPUs must wait for a CPU.
public class Busy {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000L;
    Thread[] threads = new Thread[n];
    for (int t = 0; t < n; t++) {
      threads[t] = new Thread(() -> {
        long s = 0;
        while (System.nanoTime() < end) {
          for (int i = 0; i < 100_000; i++) s += i ^ (s >>> 7);
        }
        sink += s;
      }, "busy-" + t);
      threads[t].start();
    }
    for (Thread t : threads) t.join();
  }
}
