package bottlenecks.runtime;

/**
 * Every thread's tree, and the flusher's side of them: {@link #drain()} is the one call the
 * agent makes per flush (no JNI per event). It returns what each tree gained since the previous
 * drain as records of four longs:
 *
 * <ul>
 *   <li>{@code THREAD, serial, 0, 0}: the records up to the next THREAD are this thread's;
 *   <li>{@code NODE, node, parent, method}: a new node (ids are the thread's own, 0 its root);
 *   <li>{@code COST, node, calls, nanos}: increments of calls and of exclusive nanoseconds;
 *   <li>{@code ENDED, serial, 0, 0}: the thread has ended and this was its last drain.
 * </ul>
 *
 * Uses arrays, System.arraycopy and java.lang only: nothing here may be instrumented.
 */
public final class Registry {
  static final long THREAD = 0, NODE = 1, COST = 2, ENDED = 3;

  private Registry() {}

  private static final Object LOCK = new Object();
  private static Drained[] trees = new Drained[16];
  private static int size;
  private static long serials;
  // System.nanoTime() at the program's first instrumented call, 0 before it: duration= counts
  // from there (docs/recorder.md, "Detailing").
  private static volatile long firstCallNanos;

  static ThreadTree register(Thread thread) {
    synchronized (LOCK) {
      ThreadTree tree = new ThreadTree(thread, ++serials);
      if (size == trees.length) {
        Drained[] bigger = new Drained[size * 2];
        System.arraycopy(trees, 0, bigger, 0, size);
        trees = bigger;
      }
      trees[size++] = new Drained(tree);
      return tree;
    }
  }

  /** A thread's tree gets its first node: an instrumented call. The first one on any thread counts. */
  static void firstCall() {
    if (firstCallNanos == 0) firstCallNanos = System.nanoTime();
  }

  /** Nanoseconds since the program's first instrumented call, or -1 before it. */
  public static long nanosSinceFirstCall() {
    long first = firstCallNanos;
    return first == 0 ? -1 : System.nanoTime() - first;
  }

  /** Called by the agent's flusher thread only. */
  public static long[] drain() {
    Drained[] snapshot;
    int n;
    synchronized (LOCK) {
      snapshot = trees;
      n = size;
    }
    Records out = new Records();
    boolean anyEnded = false;
    for (int i = 0; i < n; i++) anyEnded |= snapshot[i].drainInto(out);
    if (anyEnded) {
      synchronized (LOCK) {
        int kept = 0;
        for (int i = 0; i < size; i++) if (!trees[i].ended) trees[kept++] = trees[i];
        for (int i = kept; i < size; i++) trees[i] = null;
        size = kept;
      }
    }
    return out.toArray();
  }

  /** The flusher's view of one tree: what it has reported so far. */
  private static final class Drained {
    final ThreadTree tree;
    int reported = 1; // nodes sent; the root is implicit
    long[] calls = new long[64];
    long[] nanos = new long[64];
    boolean ended;

    Drained(ThreadTree tree) {
      this.tree = tree;
    }

    /** Appends this tree's increments; true if its thread has ended (then it is drained for good). */
    boolean drainInto(Records out) {
      // Thread termination happens-before isAlive() returning false (JLS 17.4.4), so a dead
      // thread's last writes are all seen below.
      boolean dead = !tree.thread.isAlive();
      Nodes n = tree.nodes;
      int count = n.count;
      out.add(THREAD, tree.serial, 0, 0);
      for (int node = reported; node < count; node++) out.add(NODE, node, n.parent(node), n.method(node));
      reported = count;
      if (count > calls.length) {
        long[] c = new long[Math.max(count, calls.length * 2)];
        long[] t = new long[c.length];
        System.arraycopy(calls, 0, c, 0, calls.length);
        System.arraycopy(nanos, 0, t, 0, nanos.length);
        calls = c;
        nanos = t;
      }
      for (int node = 1; node < count; node++) {
        long c = n.calls(node), t = n.selfNanos(node);
        // A value read stale (below what an earlier drain saw) is no increment yet.
        long dc = c > calls[node] ? c - calls[node] : 0, dt = t > nanos[node] ? t - nanos[node] : 0;
        if (dc == 0 && dt == 0) continue;
        out.add(COST, node, dc, dt);
        calls[node] += dc;
        nanos[node] += dt;
      }
      if (dead) {
        out.add(ENDED, tree.serial, 0, 0);
        ended = true;
        CurrentTree.forget(tree);
      }
      return dead;
    }
  }

  /** A growable long[] of four-long records. */
  private static final class Records {
    long[] data = new long[1024];
    int size;

    void add(long kind, long a, long b, long c) {
      if (size + 4 > data.length) {
        long[] bigger = new long[data.length * 2];
        System.arraycopy(data, 0, bigger, 0, size);
        data = bigger;
      }
      data[size] = kind;
      data[size + 1] = a;
      data[size + 2] = b;
      data[size + 3] = c;
      size += 4;
    }

    long[] toArray() {
      long[] out = new long[size];
      System.arraycopy(data, 0, out, 0, size);
      return out;
    }
  }
}
