// Ends in the way args[0] names: "exit" (System.exit(3) from a worker), "throw" (an uncaught
// exception in main) or "wait" (runs until a signal ends it).
public class Ending {
  static volatile long sink;

  static void spin(long ms) {
    long end = System.nanoTime() + ms * 1_000_000L;
    while (System.nanoTime() < end) sink += System.nanoTime() & 7;
  }

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "exit":
        Thread worker = new Thread(() -> {
          spin(600);
          System.exit(3);
        }, "exiter");
        worker.start();
        spin(60_000);
        break;
      case "throw":
        spin(600);
        throw new IllegalStateException("deliberate");
      default:
        System.out.println("ready");
        System.out.flush();
        spin(60_000);
    }
  }
}
