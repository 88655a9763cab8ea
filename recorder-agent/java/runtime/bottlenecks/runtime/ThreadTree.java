package bottlenecks.runtime;

import jdk.internal.misc.Unsafe;

/**
 * One thread's calling-context tree (Luce, seed 002: a per-thread tree, so events touch no
 * shared memory), in native memory laid out as Nodes says. The current node follows the
 * thread's instrumented frames; at every entry and exit the time since the previous event is
 * charged to the current node as exclusive ("self") time, so a node's inclusive time is the sum
 * of its subtree's self times by construction. Time the thread spends outside every instrumented
 * frame is charged to the root, which is never reported.
 *
 * <p>A tree that cannot grow (treememory=, docs/recorder.md) stops adding calling contexts and
 * never throws into the program: a call that would need a new node is counted on the overflow
 * node (Nodes.OVERFLOW), which becomes current, and returns {@code ~caller}; while it is current
 * every entry counts a call there and returns {@code ~OVERFLOW}. So {@code exit(n)} with n < 0
 * makes {@code ~n} current and {@code caught(n)} the overflow node: every call is still counted
 * once and all the time stays in the profile, the contexts already in the tree stay exact, and
 * the hot path gains only the sign test in exit (new nodes are on the slow path already).
 */
final class ThreadTree {
  private static final Unsafe U = Nodes.U;

  final Thread thread;
  final long serial;
  /** Where node 0 starts; the memory never moves. */
  final long base;
  /** Nodes committed at {@code base}. */
  private int capacity;
  /** Registry.flushes() when growth was last refused: asked again only after another flush. */
  private long refusedAt = -1;
  /** Nodes in the tree; a volatile write after a new node's fields publishes it to the flusher. */
  volatile int count = Nodes.FIRST;
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

  /**
   * A tree at {@code base}, {@code capacity} nodes committed. Serial 0: a tree of no recording
   * (Probe.pause's, Calibration's, a thread's for which no region could be mapped), whose memory
   * is not TreeMemory's and never grows; the registered trees' serials start at 1.
   */
  ThreadTree(Thread thread, long serial, long base, int capacity) {
    this.thread = thread;
    this.serial = serial;
    this.base = base;
    this.capacity = capacity;
  }

  /** A tree whose calls go nowhere: Probe.pause's, and a thread's for which no memory could be mapped. */
  static ThreadTree throwaway(Thread thread) {
    return new ThreadTree(thread, 0, Nodes.FULL, Nodes.FIRST);
  }

  private long at(int node) {
    return base + ((long) node << Nodes.SHIFT);
  }

  /** The child of the current node for {@code method} becomes current; returns it (negative: no room, see above). */
  int enter(int method) {
    long now = Clock.now();
    long at = at(current);
    charge(at + Nodes.SELF, now);
    // Most calls repeat the previous call made from the same node (a loop's body): one compare
    // here, the rest out of line.
    long recent = U.getLong(at + Nodes.RECENT);
    int child;
    if (recent != 0 && (int) (recent >>> 32) == method) {
      child = (int) recent;
    } else {
      child = lessRecentChild(at, method);
      if (child < 0) return child; // counted on the overflow node
    }
    long calls = at(child) + Nodes.CALLS;
    U.putLong(calls, U.getLong(calls) + 1);
    current = child;
    return child;
  }

  /** The frame of {@code node} is left: its caller's node becomes current. */
  void exit(int node) {
    long now = Clock.now();
    charge(at(current) + Nodes.SELF, now);
    current = node >= 0 ? (int) U.getLong(at(node) + Nodes.LINK) : ~node;
  }

  // The time since the previous event goes to the SELF word at address `self`. With clock=tick
  // most events see the tick the event before saw: nothing to charge, and neither the node's words
  // nor `last` are written (on javac, 4% less CPU in all; bench/LOG.md,
  // "Fifth round").
  private void charge(long self, long now) {
    if (now == last) return;
    U.putLong(self, U.getLong(self) + (now - last));
    last = now;
  }

  /**
   * A handler of the frame of {@code node} caught an exception. Normally that node is current
   * already (every frame the exception left ran its exit); a constructor whose super() call
   * threw did not, and is closed here. The time since the last event stays pending and goes to
   * {@code node} at its next event. A frame without a node of its own (n < 0) is the overflow
   * node's.
   */
  void caught(int node) {
    current = node >= 0 ? node : Nodes.OVERFLOW;
  }

  /**
   * The child for {@code method} of the node whose words start at {@code at}, which is not the
   * child it entered last: one of its other recent children or, failing those, its table of
   * children, or a new child; it becomes the most recent. A node that calls several methods in
   * turn (a visitor's dispatch) hits here, and so does every entry while the overflow node is
   * current (it has no children). Negative when the call went to the overflow node.
   */
  private int lessRecentChild(long at, int method) {
    int parent = (int) ((at - base) >>> Nodes.SHIFT);
    if (parent == Nodes.OVERFLOW) return overflow(parent);
    long first = at + Nodes.RECENT;
    int k = 1; // the slot that matched, or the one given up for the child found elsewhere
    long found = 0;
    boolean full = U.getLong(first) != 0;
    for (; full && k < Nodes.RECENT_SLOTS; k++) {
      long slot = U.getLong(first + 8L * k);
      if (slot == 0) full = false; // slots fill in order: the rest are empty
      else if ((int) (slot >>> 32) == method) found = slot;
      if (slot == 0 || found != 0) break;
    }
    if (found == 0) {
      // Not full: the node's recent children are all of its children, and this one is new.
      int child = full ? tableChild(parent, method, first) : add(parent, method);
      if (child < 0) return overflow(parent);
      if (k == Nodes.RECENT_SLOTS) k--; // all full: the least recent child leaves the cache
      found = Nodes.link(child, method);
    }
    for (int j = k; j > 0; j--) U.putLong(first + 8L * j, U.getLong(first + 8L * (j - 1)));
    U.putLong(first, found);
    return (int) found;
  }

  // A call from `caller` found no room for its node (or the overflow node is current): counted
  // on the overflow node, which becomes current.
  private int overflow(int caller) {
    long o = at(Nodes.OVERFLOW);
    U.putLong(o + Nodes.CALLS, U.getLong(o + Nodes.CALLS) + 1);
    if (caller != Nodes.OVERFLOW) U.putLong(base + Nodes.REFUSED, U.getLong(base + Nodes.REFUSED) + 1);
    current = Nodes.OVERFLOW;
    return ~caller;
  }

  // The child for `method` in the table of `parent`, whose recent children (from address
  // `first`) are full and hold no such child; a new child if the table holds none either (-1:
  // no room).
  private int tableChild(int parent, int method, long first) {
    if (parent >= children.length) {
      int[][] bigger = new int[Math.max(parent + 1, children.length * 2)][];
      System.arraycopy(children, 0, bigger, 0, children.length);
      children = bigger;
    }
    int[] table = children[parent];
    if (table == null) {
      // The node's first child beyond its recent ones: those were all of its children so far.
      table = new int[2 + 2 * 16];
      for (int j = 0; j < Nodes.RECENT_SLOTS; j++) {
        long slot = U.getLong(first + 8L * j);
        table = put(table, (int) (slot >>> 32), (int) slot);
      }
      children[parent] = table;
    }
    int mask = (table.length - 2) / 2 - 1;
    for (int i = slot(method, mask); ; i = (i + 1) & mask) {
      int child = table[3 + 2 * i];
      if (child == 0) break;
      if (table[2 + 2 * i] == method) return child;
    }
    int child = add(parent, method);
    if (child >= 0) children[parent] = put(table, method, child);
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

  // A new node, child of `parent`; -1 if the tree is full and cannot grow.
  private int add(int parent, int method) {
    int node = count;
    if (node == capacity && !grow()) return -1;
    U.putLong(at(node) + Nodes.LINK, Nodes.link(parent, method));
    count = node + 1; // publishes the node's structure to the flusher
    return node;
  }

  // More committed memory (a JNI call, once per doubling); refused at most once per flush, since
  // only a flush gives memory back (an ended thread's region).
  private boolean grow() {
    long flushes = Registry.flushes();
    if (serial == 0 || refusedAt == flushes) return false;
    int nodes = (int) Math.min(TreeMemory.grow(base) >>> Nodes.SHIFT, Integer.MAX_VALUE);
    if (nodes > capacity) {
      capacity = nodes;
      return true;
    }
    refusedAt = flushes;
    return false;
  }
}
