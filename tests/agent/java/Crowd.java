// More CPU-bound threads than CPUs (2P + 1 Workers, P = available processors), all at one nice
// value: each waits for a CPU behind the others, which the views show as :LOAD.
public class Crowd {
  static volatile boolean running = true;
  static volatile long sink;

  static final class Worker extends Thread {
    Worker(int n) {
      super("worker-" + n);
    }

    @Override
    public void run() {
      long x = getId();
      while (running) x = spin(x);
      sink = x;
    }

    static long spin(long x) {
      for (int i = 0; i < 100_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
      return x;
    }
  }

  public static void main(String[] args) throws Exception {
    final long millis = args.length > 0 ? Long.parseLong(args[0]) : 1500;
    final int count = 2 * Runtime.getRuntime().availableProcessors() + 1;
    Worker[] workers = new Worker[count];
    for (int i = 0; i < count; i++) (workers[i] = new Worker(i)).start();
    Thread.sleep(millis);
    running = false;
    for (Worker w : workers) w.join();
  }
}
