package bottlenecks.runtime;

/**
 * One thread's calling-context tree as arrays, node 0 its root (no method). Only the owning
 * thread writes; the flusher reads. Structure (parent, method) below {@code count} is complete
 * once the flusher has read {@code count} (a volatile write after the node's fields); the counts
 * may be read a little stale, which the flusher treats as "no increment yet".
 */
final class Nodes {
  final int[] parent;
  final int[] method;
  final long[] calls;
  final long[] selfNanos;
  // The owning thread's cache: the child most recently entered and the one before, 0 if none.
  final int[] lastChild;
  final int[] otherChild;
  volatile int count;

  Nodes(int capacity) {
    parent = new int[capacity];
    method = new int[capacity];
    calls = new long[capacity];
    selfNanos = new long[capacity];
    lastChild = new int[capacity];
    otherChild = new int[capacity];
    method[0] = -1;
    count = 1;
  }

  /** A copy with twice the room (System.arraycopy only: java.util may be instrumented). */
  Nodes grown() {
    Nodes bigger = new Nodes(parent.length * 2);
    int n = count;
    System.arraycopy(parent, 0, bigger.parent, 0, n);
    System.arraycopy(method, 0, bigger.method, 0, n);
    System.arraycopy(calls, 0, bigger.calls, 0, n);
    System.arraycopy(selfNanos, 0, bigger.selfNanos, 0, n);
    System.arraycopy(lastChild, 0, bigger.lastChild, 0, n);
    System.arraycopy(otherChild, 0, bigger.otherChild, 0, n);
    bigger.count = n;
    return bigger;
  }
}
