package bottlenecks.runtime;

/**
 * Every thread's tree, and the flusher's side of them: at each flush the agent calls {@link
 * #snapshot} (no JNI per event) and reads the trees' nodes in place, in native memory (Nodes,
 * TreeMemory): no record, no array per node, nothing in proportion to the trees on the Java heap.
 *
 * Uses arrays, System.arraycopy and java.lang only: nothing here may be instrumented.
 */
public final class Registry {
  private Registry() {}

  private static final Object LOCK = new Object();
  private static ThreadTree[] trees = new ThreadTree[16];
  private static int size;
  private static long serials;
  private static volatile long flushes;
  // System.nanoTime() at the recording's first instrumented call, 0 before it: duration= counts
  // from there (docs/recorder.md, "Detailing").
  private static volatile long firstCallNanos;

  static ThreadTree register(Thread thread) {
    long base = TreeMemory.create();
    // No memory could be mapped (the address space is exhausted): the thread's calls go nowhere.
    if (base == 0) return ThreadTree.throwaway(thread);
    Nodes.init(base);
    synchronized (LOCK) {
      ThreadTree tree = new ThreadTree(thread, ++serials, base, TreeMemory.FIRST_BYTES >>> Nodes.SHIFT);
      if (size == trees.length) {
        ThreadTree[] bigger = new ThreadTree[size * 2];
        System.arraycopy(trees, 0, bigger, 0, size);
        trees = bigger;
      }
      trees[size++] = tree;
      return tree;
    }
  }

  /**
   * A thread's first probe event since the recording started (CurrentTree: its tree is not in its
   * slot): an instrumented call. The first one on any thread counts.
   */
  static void firstCall() {
    if (firstCallNanos == 0) firstCallNanos = System.nanoTime();
  }

  /**
   * A recording starts (the agent calls this before it instruments anything): its duration=
   * counts from its own first instrumented call, not from an earlier recording's. Every thread's
   * next event looks its tree up the slow way, which tells firstCall (CurrentTree.restart).
   */
  public static void startRecording() {
    CurrentTree.restart();
  }

  /** Called by CurrentTree.restart only, under its lock. */
  static void forgetFirstCall() {
    firstCallNanos = 0;
  }

  /** Nanoseconds since the recording's first instrumented call, or -1 before it. */
  public static long nanosSinceFirstCall() {
    long first = firstCallNanos;
    return first == 0 ? -1 : System.nanoTime() - first;
  }

  /** Snapshots taken so far: a tree refused memory asks again only after the next one. */
  static long flushes() {
    return flushes;
  }

  /**
   * Called by the agent's flusher thread only, at each flush: four longs per tree, its serial,
   * its base address, its node count and 1 if its thread has ended (else 0). The nodes below
   * the count are complete (the count is read volatile, after they were written). A tree whose
   * thread has ended is listed once, with its last count, and dropped: its region is the agent's
   * to unmap once read.
   */
  public static long[] snapshot() {
    synchronized (LOCK) {
      flushes++;
      long[] out = new long[4 * size];
      int kept = 0;
      for (int i = 0; i < size; i++) {
        ThreadTree tree = trees[i];
        // Thread termination happens-before isAlive() returning false (JLS 17.4.4), so a dead
        // thread's last nodes are all below the count read after it.
        boolean dead = !tree.thread.isAlive();
        out[4 * i] = tree.serial;
        out[4 * i + 1] = tree.base;
        out[4 * i + 2] = tree.count;
        out[4 * i + 3] = dead ? 1 : 0;
        if (dead) CurrentTree.forget(tree);
        else trees[kept++] = tree;
      }
      for (int i = kept; i < size; i++) trees[i] = null;
      size = kept;
      return out;
    }
  }
}
