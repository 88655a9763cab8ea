// Two threads make the same 2^18 - 1 calls, each in a calling context of its own: a binary tree
// of a's and b's 17 calls deep under each thread's lambda: each thread's tree grows through
// many steps of its memory (TreeMemory) and is read across several flushes.
public class Branching {
  static final int DEPTH = 17;

  static void a(int n) {
    if (n > 0) {
      a(n - 1);
      b(n - 1);
    }
  }

  static void b(int n) {
    if (n > 0) {
      a(n - 1);
      b(n - 1);
    }
  }

  public static void main(String[] args) throws Exception {
    Thread[] threads = new Thread[2];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(() -> a(DEPTH), "branching-" + i);
      threads[i].start();
    }
    for (Thread t : threads) t.join();
  }
}
