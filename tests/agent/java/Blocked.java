// Thread "blocked-waiter" waits to enter a monitor that thread "lock-holder" holds.
public class Blocked {
  static final Object LOCK = new Object();

  public static void main(String[] args) throws Exception {
    Thread holder = new Thread(() -> {
      synchronized (LOCK) {
        sleepQuietly(1500);
      }
    }, "lock-holder");
    holder.start();
    Thread.sleep(100);
    Thread waiter = new Thread(() -> {
      synchronized (LOCK) {
        LOCK.hashCode();
      }
    }, "blocked-waiter");
    waiter.start();
    holder.join();
    waiter.join();
  }

  static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
