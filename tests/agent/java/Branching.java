// Two threads make the same 2^18 - 1 calls, each in a calling context of its own: a binary tree
// of a's and b's 17 calls deep under each thread's lambda. The agent drains a flush in batches
// of 64k records (Registry.java), so this one tree takes several.
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
