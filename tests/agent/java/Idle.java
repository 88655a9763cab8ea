// Threads that sleep, wait on a monitor and park, for about a second, and one blocked in
// accept(), which JVMTI reports as RUNNABLE (in native code) although it never runs.
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.locks.LockSupport;

public class Idle {
  static final Object MONITOR = new Object();

  public static void main(String[] args) throws Exception {
    Thread sleeper = new Thread(() -> {
      try {
        Thread.sleep(1500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "idle-sleeper");
    Thread waiter = new Thread(() -> {
      synchronized (MONITOR) {
        try {
          MONITOR.wait(1500);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "idle-waiter");
    Thread parker = new Thread(() -> LockSupport.parkNanos(1_500_000_000L), "idle-parker");
    // A name beyond the BMP: JVMTI reports it in modified UTF-8, the profile needs UTF-8.
    Thread named = new Thread(() -> LockSupport.parkNanos(1_500_000_000L), "idle-\uD83D\uDE00");
    ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      try {
        server.accept();
      } catch (Exception e) {
        // closed at the end of main: the thread ends
      }
    }, "idle-acceptor");
    acceptor.start();
    named.start();
    sleeper.start();
    waiter.start();
    parker.start();
    sleeper.join();
    waiter.join();
    parker.join();
    named.join();
    server.close();
    acceptor.join();
  }
}
