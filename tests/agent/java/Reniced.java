import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

// One CPU-bound thread (class Reniced$Low) lowers its own OS priority to nice 19 with renice(1)
// on its Linux thread id, then competes with P + 1 CPU-bound Hogs at nice 0 (P = available
// processors): higher-priority threads fill every CPU, which the views show as :PRIO.
public class Reniced {
  static volatile boolean running = true;
  static volatile long sink;

  static long spin(long x) {
    for (int i = 0; i < 100_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  static final class Hog extends Thread {
    Hog(int n) {
      super("hog-" + n);
    }

    @Override
    public void run() {
      long x = getId();
      while (running) x = spin(x);
      sink = x;
    }
  }

  static final class Low extends Thread {
    final CountDownLatch reniced = new CountDownLatch(1);

    Low() {
      super("low");
    }

    @Override
    public void run() {
      try {
        // /proc/thread-self is "PID/task/TID": this thread's own Linux id.
        String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
        String tid = self.substring(self.lastIndexOf('/') + 1);
        Process p = new ProcessBuilder("renice", "-n", "19", "-p", tid).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) throw new IllegalStateException("renice failed: " + out);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      } finally {
        reniced.countDown();
      }
      long x = getId();
      while (running) x = spin(x);
      sink = x;
    }
  }

  public static void main(String[] args) throws Exception {
    final long millis = args.length > 0 ? Long.parseLong(args[0]) : 1500;
    Low low = new Low();
    low.start();
    low.reniced.await();
    final int count = Runtime.getRuntime().availableProcessors() + 1;
    Hog[] hogs = new Hog[count];
    for (int i = 0; i < count; i++) (hogs[i] = new Hog(i)).start();
    Thread.sleep(millis);
    running = false;
    low.join();
    for (Hog h : hogs) h.join();
  }
}
