package bottlenecks.runtime;

/**
 * One thread's calling-context tree (Luce, seed 002: a per-thread tree, so events touch no
 * shared memory). The current node follows the thread's instrumented frames; at every entry and
 * exit the time since the previous event is charged to the current node as exclusive ("self")
 * time, so a node's inclusive time is the sum of its subtree's self times by construction. Time
 * the thread spends outside every instrumented frame is charged to the root, which is never
 * reported.
 *
 * <p>Public only as the type of the instrumented methods' local (Probe); nothing here is.
 */
public final class ThreadTree {
  final Thread thread;
  final long serial;
  volatile Nodes nodes = new Nodes(64);
  /**
   * The current node: the frame of the innermost instrumented method running. Public for one
   * reader only: an instrumented method reads it right after {@link Probe#enter}, its frame's node
   * (a field read costs nothing in the interpreter, where a static call is a real call).
   */
  public int current;
  private long last = Clock.now();

  // Children by (parent, method): open addressing over pairs {key, child} side by side, so a
  // probe touches one cache line (a real program's tree is big: javac's has 104,000 calling
  // contexts, a table of 4 MiB). Keys are stored + 1 so that 0 means empty.
  private long[] table = new long[2 * 128];
  private int shift = 64 - 7; // Fibonacci hashing: the top log2(slots) bits of key * phi
  private int used;

  ThreadTree(Thread thread, long serial) {
    this.thread = thread;
    this.serial = serial;
  }

  /** The child of the current node for {@code method} becomes current; returns it. */
  int enter(int method) {
    long now = Clock.now();
    long[] w = nodes.words;
    int at = current << Nodes.SHIFT;
    w[at + Nodes.SELF] += now - last;
    // Most calls repeat the previous call made from the same node (a loop's body): one compare
    // here, the rest out of line.
    long recent = w[at + Nodes.RECENT];
    int child;
    if (recent != 0 && (int) (recent >>> 32) == method) {
      child = (int) recent;
    } else {
      child = lessRecentChild(at, method);
      w = nodes.words; // the tree may have grown
    }
    w[(child << Nodes.SHIFT) + Nodes.CALLS]++;
    current = child;
    last = now;
    return child;
  }

  /** The frame of {@code node} is left: its caller's node becomes current. */
  void exit(int node) {
    long now = Clock.now();
    long[] w = nodes.words;
    w[(current << Nodes.SHIFT) + Nodes.SELF] += now - last;
    current = (int) w[(node << Nodes.SHIFT) + Nodes.LINK];
    last = now;
  }

  /**
   * A handler of the frame of {@code node} caught an exception. Normally that node is current
   * already (every frame the exception left ran its exit); a constructor whose super() call
   * threw did not, and is closed here. The time since the last event stays pending and goes to
   * {@code node} at its next event.
   */
  void caught(int node) {
    current = node;
  }

  /**
   * The child for {@code method} of the node whose words start at {@code at}, which is not the
   * child it entered last: one of its other recent children or, failing those, the table (which
   * holds every child); it becomes the most recent. A node that calls several methods in turn (a
   * visitor's dispatch) hits here, and a table lookup is a cache miss in a real program's tree.
   */
  private int lessRecentChild(int at, int method) {
    long[] w = nodes.words;
    int first = at + Nodes.RECENT;
    int k = 1; // the slot that matched, or the one given up for the child found in the table
    long found = 0;
    for (; k < Nodes.RECENT_SLOTS; k++) {
      long slot = w[first + k];
      if (slot == 0) break; // slots fill in order: the rest are empty
      if ((int) (slot >>> 32) == method) {
        found = slot;
        break;
      }
    }
    if (found == 0) {
      if (k == Nodes.RECENT_SLOTS) k--; // all full: the least recent child leaves the cache
      found = Nodes.link(child(at >> Nodes.SHIFT, method), method);
      w = nodes.words; // child() may have grown the tree
    }
    for (int j = k; j > 0; j--) w[first + j] = w[first + j - 1];
    w[first] = found;
    return (int) found;
  }

  private int child(int parent, int method) {
    long key = (((long) parent << 32) | (method & 0xffffffffL)) + 1;
    long[] t = table;
    int mask = t.length / 2 - 1;
    int i = slot(key, shift);
    while (true) {
      long at = t[2 * i];
      if (at == key) return (int) t[2 * i + 1];
      if (at == 0) return add(parent, method, key, i);
      i = (i + 1) & mask;
    }
  }

  private static int slot(long key, int shift) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
  }

  private int add(int parent, int method, long key, int slot) {
    Nodes n = nodes;
    int node = n.count;
    if (node == n.capacity()) {
      n = n.grown();
      nodes = n;
    }
    n.words[(node << Nodes.SHIFT) + Nodes.LINK] = Nodes.link(parent, method);
    n.count = node + 1; // publishes the node's structure to the flusher
    if (node == 1 && thread != null) Registry.firstCall(); // not Probe.pause's throwaway trees
    table[2 * slot] = key;
    table[2 * slot + 1] = node;
    if (++used * 4 > table.length) rehash(); // above half the slots full
    return node;
  }

  private void rehash() {
    long[] old = table;
    long[] t = new long[old.length * 2];
    int s = shift - 1;
    int mask = t.length / 2 - 1;
    for (int j = 0; j < old.length; j += 2) {
      long key = old[j];
      if (key == 0) continue;
      int i = slot(key, s);
      while (t[2 * i] != 0) i = (i + 1) & mask;
      t[2 * i] = key;
      t[2 * i + 1] = old[j + 1];
    }
    table = t;
    shift = s;
  }
}
