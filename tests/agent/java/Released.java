import java.lang.reflect.Method;

// Threads one after the other, each growing a tree of Work's calling contexts that needs half of
// the treememory= agent_calltree_memory_test.cpp gives (it repeats these numbers): all of them
// fit only if every ended thread's memory is given back. The agent gives it back at the flush
// after the thread ends, so after each thread the program waits, for at most 20 s in all,
// until the trees' committed memory is back where it was (TreeMemory.committed(), by
// reflection: the runtime is on the boot class path).
public class Released {
  static final int THREADS = 8;
  static final int DEPTH = 11;

  static class Work {
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
  }

  public static void main(String[] args) throws Exception {
    Method committed = Class.forName("bottlenecks.runtime.TreeMemory").getMethod("committed");
    long before = (long) committed.invoke(null);
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (int i = 0; i < THREADS; i++) {
      Thread t = new Thread(() -> Work.a(DEPTH), "grower-" + i);
      t.start();
      t.join();
      while ((long) committed.invoke(null) > before && System.nanoTime() < deadline) Thread.sleep(10);
    }
  }
}
