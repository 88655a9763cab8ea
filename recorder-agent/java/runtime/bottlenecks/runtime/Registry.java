package bottlenecks.runtime;

/**
 * Every thread's tree, and the flusher's side of them: {@link #drain} is what the agent calls at
 * a flush (no JNI per event), as often as it takes to write what each tree gained since the
 * previous flush as records of four longs:
 *
 * <ul>
 *   <li>{@code THREAD, serial, 0, 0}: the records up to the next THREAD are this thread's;
 *   <li>{@code NODE, node, parent, method}: a new node (ids are the thread's own, 0 its root);
 *   <li>{@code COST, node, calls, nanos}: increments of calls and of exclusive nanoseconds;
 *   <li>{@code ENDED, serial, 0, 0}: the thread has ended and this was its last drain;
 *   <li>{@code DONE, 0, 0, 0}: the flush's records are complete.
 * </ul>
 *
 * The records go into the agent's array a batch at a time, so that a flush needs no memory in
 * proportion to the trees: javac compiling its own sources grows tens of millions of calling
 * contexts, and one array of them all per flush (the design before) ran a 4 GB heap out
 * (docs/performance.md, "A real source tree").
 *
 * Uses arrays, System.arraycopy and java.lang only: nothing here may be instrumented.
 */
public final class Registry {
  static final long THREAD = 0, NODE = 1, COST = 2, ENDED = 3, DONE = 4;

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

  // The flush in progress (the flusher's thread only): its trees, and the one being drained.
  private static Drained[] flushing;
  private static int flushingSize;
  private static int flushingAt;

  /**
   * Called by the agent's flusher thread only. Writes the flush's next records into {@code into}
   * (at least eight longs) and returns how many longs it wrote; the flush is complete once a
   * DONE record has been written. Each call starts with the THREAD record of the tree it
   * continues.
   */
  public static int drain(long[] into) {
    if (flushing == null) {
      synchronized (LOCK) {
        flushing = trees;
        flushingSize = size;
      }
      flushingAt = 0;
    }
    Batch out = new Batch(into);
    while (flushingAt < flushingSize) {
      if (!flushing[flushingAt].drainInto(out)) return out.size;
      flushingAt++;
    }
    if (!out.add(DONE, 0, 0, 0)) return out.size;
    flushing = null;
    synchronized (LOCK) {
      int kept = 0;
      for (int i = 0; i < size; i++) if (!trees[i].ended) trees[kept++] = trees[i];
      for (int i = kept; i < size; i++) trees[i] = null;
      size = kept;
    }
    return out.size;
  }

  /** The flusher's view of one tree: what it has reported so far, and where this flush is. */
  private static final class Drained {
    final ThreadTree tree;
    int reported = 1; // nodes sent; the root is implicit
    long[] calls = new long[64];
    long[] nanos = new long[64];
    boolean ended;
    // This flush: whether it has begun for this tree, whether the thread had ended at its
    // beginning, the node count then, and the next node whose counts are compared.
    boolean begun;
    boolean dead;
    Nodes nodes;
    int count;
    int compared;

    Drained(ThreadTree tree) {
      this.tree = tree;
    }

    /** Appends this tree's records; false if {@code out} filled up first (the next call goes on). */
    boolean drainInto(Batch out) {
      if (!begun) {
        // Thread termination happens-before isAlive() returning false (JLS 17.4.4), so a dead
        // thread's last writes are all seen below.
        dead = !tree.thread.isAlive();
        nodes = tree.nodes;
        count = nodes.count;
        compared = 1;
        begun = true;
        if (count > calls.length) {
          long[] c = new long[Math.max(count, calls.length * 2)];
          long[] t = new long[c.length];
          System.arraycopy(calls, 0, c, 0, calls.length);
          System.arraycopy(nanos, 0, t, 0, nanos.length);
          calls = c;
          nanos = t;
        }
      }
      if (!out.add(THREAD, tree.serial, 0, 0)) return false;
      Nodes n = nodes;
      for (; reported < count; reported++) {
        if (!out.add(NODE, reported, n.parent(reported), n.method(reported))) return false;
      }
      for (; compared < count; compared++) {
        int node = compared;
        long c = n.calls(node), t = n.selfNanos(node);
        // A value read stale (below what an earlier drain saw) is no increment yet.
        long dc = c > calls[node] ? c - calls[node] : 0, dt = t > nanos[node] ? t - nanos[node] : 0;
        if (dc == 0 && dt == 0) continue;
        if (!out.add(COST, node, dc, dt)) return false;
        calls[node] += dc;
        nanos[node] += dt;
      }
      if (dead) {
        if (!out.add(ENDED, tree.serial, 0, 0)) return false;
        ended = true;
        CurrentTree.forget(tree);
      }
      begun = false;
      nodes = null;
      return true;
    }
  }

  /** The agent's array, filled four longs at a time. */
  private static final class Batch {
    final long[] data;
    int size;

    Batch(long[] data) {
      this.data = data;
    }

    /** False, writing nothing, if the record does not fit. */
    boolean add(long kind, long a, long b, long c) {
      if (size + 4 > data.length) return false;
      data[size] = kind;
      data[size + 1] = a;
      data[size + 2] = b;
      data[size + 3] = c;
      size += 4;
      return true;
    }
  }
}
