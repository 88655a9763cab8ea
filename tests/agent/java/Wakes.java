// A thread that sleeps in one method, wakes, runs briefly and sleeps in another, several times:
// the agent reuses an idle thread's last stack only while the thread has not run, so every
// sleeping sample must land on the method the thread is sleeping in at that moment.
public class Wakes {
  static volatile long sink;

  static void work() {
    long x = 0;
    for (int i = 0; i < 200_000; i++) x += (x << 1) ^ i;
    sink = x;
  }

  static void sleepInFirst() throws InterruptedException {
    Thread.sleep(150);
  }

  static void sleepInSecond() throws InterruptedException {
    Thread.sleep(150);
  }

  public static void main(String[] args) throws Exception {
    Thread t = new Thread(() -> {
      try {
        for (int round = 0; round < 4; round++) {
          sleepInFirst();
          work();
          sleepInSecond();
          work();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "wakes");
    t.start();
    t.join();
  }
}
