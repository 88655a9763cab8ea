package bottlenecks.runtime;

/**
 * One thread's calling-context tree (Luce, seed 002: a per-thread tree, so events touch no
 * shared memory). The current node follows the thread's instrumented frames; at every entry and
 * exit the time since the previous event is charged to the current node as exclusive ("self")
 * time, so a node's inclusive time is the sum of its subtree's self times by construction. Time
 * the thread spends outside every instrumented frame is charged to the root, which is never
 * reported.
 */
final class ThreadTree {
  final Thread thread;
  final long serial;
  volatile Nodes nodes = new Nodes(64);
  /** The current node: the frame of the innermost instrumented method running. */
  int current;
  private long last = Clock.now();

  // The children of each node that has had more than Nodes.RECENT_SLOTS, by method: until then
  // its recent children are all of them. One small table per such node (open addressing over
  // pairs {method, child}; child 0 is empty, the root being nobody's child; the pairs start at
  // index 2, index 0 counts them), so the hot dispatching nodes' tables stay in the cache: one
  // table for the whole tree (javac's: 4 MiB) took 28% of javac's samples in its cache misses
  // (docs/performance.md, "Call-tree mode").
  private int[][] children = new int[64][];

  ThreadTree(Thread thread, long serial) {
    this.thread = thread;
    this.serial = serial;
  }

  /** The child of the current node for {@code method} becomes current; returns it. */
  int enter(int method) {
    long now = Clock.now();
    long[] w = nodes.words;
    int at = current << Nodes.SHIFT;
    charge(w, at + Nodes.SELF, now);
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
    return child;
  }

  /** The frame of {@code node} is left: its caller's node becomes current. */
  void exit(int node) {
    long now = Clock.now();
    long[] w = nodes.words;
    charge(w, (current << Nodes.SHIFT) + Nodes.SELF, now);
    current = (int) w[(node << Nodes.SHIFT) + Nodes.LINK];
  }

  // The time since the previous event goes to the SELF word at `self`. With clock=tick most
  // events see the tick the event before saw: nothing to charge, and neither the node's words nor
  // `last` are written (on javac, 4% less CPU in all; docs/performance.md, "Call-tree mode", fifth
  // round).
  private void charge(long[] w, int self, long now) {
    if (now == last) return;
    w[self] += now - last;
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
   * child it entered last: one of its other recent children or, failing those, its table of
   * children, or a new child; it becomes the most recent. A node that calls several methods in
   * turn (a visitor's dispatch) hits here.
   */
  private int lessRecentChild(int at, int method) {
    long[] w = nodes.words;
    int first = at + Nodes.RECENT;
    int k = 1; // the slot that matched, or the one given up for the child found elsewhere
    long found = 0;
    boolean full = w[first] != 0;
    for (; full && k < Nodes.RECENT_SLOTS; k++) {
      long slot = w[first + k];
      if (slot == 0) full = false; // slots fill in order: the rest are empty
      else if ((int) (slot >>> 32) == method) found = slot;
      if (slot == 0 || found != 0) break;
    }
    if (found == 0) {
      int parent = at >> Nodes.SHIFT;
      // Not full: the node's recent children are all of its children, and this one is new.
      int child = full ? tableChild(parent, method, w, first) : add(parent, method);
      if (k == Nodes.RECENT_SLOTS) k--; // all full: the least recent child leaves the cache
      found = Nodes.link(child, method);
      w = nodes.words; // add() may have grown the tree
    }
    for (int j = k; j > 0; j--) w[first + j] = w[first + j - 1];
    w[first] = found;
    return (int) found;
  }

  // The child for `method` in the table of `parent`, whose recent children (from `first` in
  // `w`) are full and hold no such child; a new child if the table holds none either.
  private int tableChild(int parent, int method, long[] w, int first) {
    if (parent >= children.length) {
      int[][] bigger = new int[Math.max(parent + 1, children.length * 2)][];
      System.arraycopy(children, 0, bigger, 0, children.length);
      children = bigger;
    }
    int[] table = children[parent];
    if (table == null) {
      // The node's first child beyond its recent ones: those were all of its children so far.
      table = new int[2 + 2 * 16];
      for (int j = 0; j < Nodes.RECENT_SLOTS; j++) table = put(table, (int) (w[first + j] >>> 32), (int) w[first + j]);
      children[parent] = table;
    }
    int mask = (table.length - 2) / 2 - 1;
    for (int i = slot(method, mask); ; i = (i + 1) & mask) {
      int child = table[3 + 2 * i];
      if (child == 0) break;
      if (table[2 + 2 * i] == method) return child;
    }
    int child = add(parent, method);
    children[parent] = put(table, method, child);
    return child;
  }

  private static int slot(int method, int mask) {
    int h = method * 0x9E3779B9; // Fibonacci hashing; the high bits folded in for small tables
    return (h ^ (h >>> 16)) & mask;
  }

  // Adds the pair to the table, which does not hold `method`; returns the table (a bigger copy
  // once it is half full).
  private static int[] put(int[] table, int method, int child) {
    int mask = (table.length - 2) / 2 - 1;
    int i = slot(method, mask);
    while (table[3 + 2 * i] != 0) i = (i + 1) & mask;
    table[2 + 2 * i] = method;
    table[3 + 2 * i] = child;
    if (++table[0] * 2 <= mask + 1) return table;
    int[] bigger = new int[2 + 4 * (mask + 1)];
    for (int j = 0; j <= mask; j++) if (table[3 + 2 * j] != 0) bigger = put(bigger, table[2 + 2 * j], table[3 + 2 * j]);
    return bigger;
  }

  private int add(int parent, int method) {
    Nodes n = nodes;
    int node = n.count;
    if (node == n.capacity()) {
      n = n.grown();
      nodes = n;
    }
    n.words[(node << Nodes.SHIFT) + Nodes.LINK] = Nodes.link(parent, method);
    n.count = node + 1; // publishes the node's structure to the flusher
    if (node == 1 && serial != 0) Registry.firstCall(); // not the trees of Probe.pause or Calibration
    return node;
  }
}
