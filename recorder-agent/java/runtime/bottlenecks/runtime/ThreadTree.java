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
  private int current;
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
    Nodes n = nodes;
    int at = current;
    n.selfNanos[at] += now - last;
    // Most calls repeat the previous call made from the same node (a loop's body): one compare
    // here, the rest out of line, so the JIT inlines little into every instrumented method.
    int child = n.lastChild[at];
    if (child == 0 || n.method[child] != method) {
      child = lessRecentChild(n, at, method, child);
      n = nodes; // the arrays may have grown
    }
    n.calls[child]++;
    current = child;
    last = now;
    return child;
  }

  /** The frame of {@code node} is left: its caller's node becomes current. */
  void exit(int node) {
    long now = Clock.now();
    Nodes n = nodes;
    n.selfNanos[current] += now - last;
    current = n.parent[node];
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
   * The node's child for {@code method}, which is not its last child: its second most recent
   * child or, failing that, the table. A node that calls two methods in turn (a visitor's
   * dispatch) hits here: javac's half of calls that miss the last child become 29% (measured,
   * docs/performance.md), and each table lookup is a cache miss in a real program's tree.
   */
  private int lessRecentChild(Nodes n, int at, int method, int last) {
    int child = n.otherChild[at];
    if (child == 0 || n.method[child] != method) {
      child = child(n, at, method);
      n = nodes; // child() may have grown the arrays
    }
    n.otherChild[at] = last;
    n.lastChild[at] = child;
    return child;
  }

  private int child(Nodes n, int parent, int method) {
    long key = (((long) parent << 32) | (method & 0xffffffffL)) + 1;
    long[] t = table;
    int mask = t.length / 2 - 1;
    int i = slot(key, shift);
    while (true) {
      long at = t[2 * i];
      if (at == key) return (int) t[2 * i + 1];
      if (at == 0) return add(n, parent, method, key, i);
      i = (i + 1) & mask;
    }
  }

  private static int slot(long key, int shift) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
  }

  private int add(Nodes n, int parent, int method, long key, int slot) {
    int node = n.count;
    if (node == n.parent.length) {
      n = n.grown();
      nodes = n;
    }
    n.parent[node] = parent;
    n.method[node] = method;
    n.count = node + 1; // publishes the node's structure to the flusher
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
