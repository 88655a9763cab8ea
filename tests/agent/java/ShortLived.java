// Thousands of threads that live for a moment each (args[0] of them), a few at a time.
public class ShortLived {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    for (int i = 0; i < n; i += 8) {
      Thread[] batch = new Thread[8];
      for (int j = 0; j < batch.length; j++) {
        batch[j] = new Thread(() -> {
          long s = 0;
          for (int k = 0; k < 20_000; k++) s += k;
          sink += s;
        }, "short-" + (i + j));
        batch[j].start();
      }
      for (Thread t : batch) t.join();
    }
  }
}
