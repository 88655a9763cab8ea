// Thread "deep" recurses args[0] frames deep, then sleeps there for a second.
public class Deep {
  static void down(int n) throws InterruptedException {
    if (n == 0) {
      Thread.sleep(1000);
      return;
    }
    down(n - 1);
  }

  public static void main(String[] args) throws Exception {
    int depth = Integer.parseInt(args[0]);
    Thread t = new Thread(() -> {
      try {
        down(depth);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "deep");
    t.start();
    t.join();
  }
}
