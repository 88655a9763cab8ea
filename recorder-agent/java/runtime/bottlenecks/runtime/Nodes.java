package bottlenecks.runtime;

/**
 * One thread's calling-context tree, node 0 its root (no method). A node is eight longs (64
 * bytes) side by side in one array: what an entry touches of the calling node (its time and its
 * recent children, with their methods) and of the called one (its calls) is a cache line each.
 * As six parallel arrays with two cached children it was four lines per entry, and on javac,
 * whose tree (104,000 contexts) does not fit in the cache, 43% of the instrumented program's
 * samples were in the hash lookup of the children the cache missed (docs/performance.md,
 * "Call-tree mode"):
 *
 * <pre>
 *   SELF         exclusive nanoseconds
 *   CALLS        calls
 *   LINK         parent (low half), method (high half)
 *   RECENT ...   the owning thread's cache: the RECENT_SLOTS children most recently entered,
 *                most recent first, each child (low half) and its method (high half); 0: empty
 * </pre>
 *
 * Only the owning thread writes; the flusher reads. Structure (parent, method) below {@code
 * count} is complete once the flusher has read {@code count} (a volatile write after the node's
 * fields); the counts may be read a little stale, which the flusher treats as "no increment yet".
 */
final class Nodes {
  static final int SELF = 0, CALLS = 1, LINK = 2, RECENT = 3;
  static final int RECENT_SLOTS = 5;
  /** Longs per node: node i's words start at {@code i << SHIFT}. */
  static final int SHIFT = 3;

  final long[] words;
  volatile int count;

  Nodes(int capacity) {
    words = new long[capacity << SHIFT];
    words[LINK] = link(0, -1);
    count = 1;
  }

  int capacity() {
    return words.length >> SHIFT;
  }

  /** A LINK or RECENT word: a node (low half) and a method (high half). */
  static long link(int node, int method) {
    return (node & 0xffffffffL) | ((long) method << 32);
  }

  int parent(int node) {
    return (int) words[(node << SHIFT) + LINK];
  }

  int method(int node) {
    return (int) (words[(node << SHIFT) + LINK] >>> 32);
  }

  long calls(int node) {
    return words[(node << SHIFT) + CALLS];
  }

  long selfNanos(int node) {
    return words[(node << SHIFT) + SELF];
  }

  /** A copy with twice the room (System.arraycopy only: java.util may be instrumented). */
  Nodes grown() {
    Nodes bigger = new Nodes(capacity() * 2);
    int n = count;
    System.arraycopy(words, 0, bigger.words, 0, n << SHIFT);
    bigger.count = n;
    return bigger;
  }
}
