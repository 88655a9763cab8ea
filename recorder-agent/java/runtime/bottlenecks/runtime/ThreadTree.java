package bottlenecks.runtime;

/**
 * One thread's calling-context tree (Luce, seed 002: a per-thread tree, so events touch no
 * shared memory). The current node follows the thread's instrumented frames; at every event the
 * time since the previous event is charged to the current node as exclusive ("self") time, so a
 * node's inclusive time is the sum of its subtree's self times by construction. Time the thread
 * spends outside every instrumented frame is charged to the root, which is never reported.
 */
final class ThreadTree {
  final Thread thread;
  final long serial;
  volatile Nodes nodes = new Nodes(64);
  private int current;
  private long last = System.nanoTime();

  // Children by (parent, method): open addressing, keys stored + 1 so that 0 means empty.
  private long[] keys = new long[128];
  private int[] children = new int[128];
  private int used;

  ThreadTree(Thread thread, long serial) {
    this.thread = thread;
    this.serial = serial;
  }

  void enter(int method) {
    long now = System.nanoTime();
    Nodes n = nodes;
    int at = current;
    n.selfNanos[at] += now - last;
    int child = child(n, at, method);
    n = nodes; // child() may have grown the arrays
    n.calls[child]++;
    current = child;
    last = now;
  }

  void exit() {
    long now = System.nanoTime();
    Nodes n = nodes;
    int at = current;
    n.selfNanos[at] += now - last;
    current = n.parent[at]; // the root is its own parent: an unmatched exit stays there
    last = now;
  }

  private int child(Nodes n, int parent, int method) {
    long key = (((long) parent << 32) | (method & 0xffffffffL)) + 1;
    int mask = keys.length - 1;
    int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    while (true) {
      long at = keys[i];
      if (at == key) return children[i];
      if (at == 0) return add(n, parent, method, key, i);
      i = (i + 1) & mask;
    }
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
    keys[slot] = key;
    children[slot] = node;
    if (++used * 2 > keys.length) rehash();
    return node;
  }

  private void rehash() {
    long[] oldKeys = keys;
    int[] oldChildren = children;
    keys = new long[oldKeys.length * 2];
    children = new int[oldKeys.length * 2];
    int mask = keys.length - 1;
    for (int j = 0; j < oldKeys.length; j++) {
      long key = oldKeys[j];
      if (key == 0) continue;
      int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
      while (keys[i] != 0) i = (i + 1) & mask;
      keys[i] = key;
      children[i] = oldChildren[j];
    }
  }
}
