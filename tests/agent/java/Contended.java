import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

// N threads "blocked-I" wait to enter a monitor that "monitor-holder" holds, and N threads
// "parked-I" wait for a ReentrantLock that "lock-holder" holds; both holders keep them for
// HOLD_MS, longer than the recording lasts (the test's duration=), so every sample of a waiter
// is taken while its owner holds the lock.
public class Contended {
  static final Object MONITOR = new Object();
  static final ReentrantLock LOCK = new ReentrantLock();

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    long holdMs = Long.parseLong(args[1]);
    CountDownLatch held = new CountDownLatch(2);
    List<Thread> threads = new ArrayList<>();
    threads.add(new Thread(() -> {
      synchronized (MONITOR) {
        held.countDown();
        sleepQuietly(holdMs);
      }
    }, "monitor-holder"));
    threads.add(new Thread(() -> {
      LOCK.lock();
      try {
        held.countDown();
        sleepQuietly(holdMs);
      } finally {
        LOCK.unlock();
      }
    }, "lock-holder"));
    for (Thread t : threads) t.start();
    held.await();
    for (int i = 0; i < n; i++) {
      Thread blocked = new Thread(() -> {
        synchronized (MONITOR) {
          MONITOR.hashCode();
        }
      }, "blocked-" + i);
      Thread parked = new Thread(() -> {
        LOCK.lock();
        LOCK.unlock();
      }, "parked-" + i);
      blocked.start();
      parked.start();
      threads.add(blocked);
      threads.add(parked);
    }
    for (Thread t : threads) t.join();
  }

  static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
