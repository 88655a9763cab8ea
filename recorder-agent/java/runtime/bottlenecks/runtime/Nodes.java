package bottlenecks.runtime;

import jdk.internal.misc.Unsafe;

/**
 * The layout of a thread's calling-context tree in native memory (ThreadTree), node 0 its root
 * (no method), node 1 its overflow node (below). A node is eight longs (64 bytes) at {@code base
 * + (node << SHIFT)}: what an entry touches of the calling node (its time and its recent
 * children, with their methods) and of the called one (its calls) is a cache line each. As six
 * parallel arrays with two cached children it was four lines per entry, and on javac, whose tree
 * (104,000 contexts) does not fit in the cache, 43% of the instrumented program's samples were in
 * the hash lookup of the children the cache missed (docs/performance.md, "Call-tree mode"):
 *
 * <pre>
 *   SELF         exclusive nanoseconds
 *   CALLS        calls
 *   LINK         parent (low half), method (high half)
 *   RECENT ...   the owning thread's cache: the RECENT_SLOTS children most recently entered,
 *                most recent first, each child (low half) and its method (high half); 0: empty
 * </pre>
 *
 * Offsets are in bytes. The memory is the agent's (TreeMemory), read and written with {@link
 * Unsafe}'s address accessors, which C2 compiles to plain loads and stores: no array, so the
 * tree is never copied as it grows (a {@code long[]} doubled from 2.1 to 4.3 GB with the old
 * one live, and javac ran out of heap: docs/performance.md, "A real source tree").
 *
 * <p>Node 1, {@link #OVERFLOW}, is "(call tree full)": when a new calling context finds no room
 * (treememory=, docs/recorder.md), the call is counted there and its frame's node is {@code
 * ~caller}; every call made while it is current is counted there too. Its last word, {@link
 * #REFUSED}, counts the entries that found no room. The agent adds it to the profile only once
 * it has a call.
 *
 * <p>Only the owning thread writes; the flusher reads. Structure (parent, method) below {@code
 * count} is complete once the flusher has read {@code count} (a volatile write after the node's
 * fields); the counts may be read a little stale, which the flusher treats as "no increment yet".
 */
final class Nodes {
  private Nodes() {}

  static final Unsafe U = Unsafe.getUnsafe();

  static final int SELF = 0, CALLS = 8, LINK = 16, RECENT = 24;
  static final int RECENT_SLOTS = 5;
  /** Bytes per node: node i starts at {@code base + (i << SHIFT)}. */
  static final int SHIFT = 6;
  static final int OVERFLOW = 1;
  /** The overflow node's last word (no recent children of its own): entries refused a node. */
  static final int REFUSED = (OVERFLOW << SHIFT) + 56;
  /** Nodes a tree starts with: the root and the overflow node. */
  static final int FIRST = 2;

  /** A LINK or RECENT word: a node (low half) and a method (high half). */
  static long link(int node, int method) {
    return (node & 0xffffffffL) | ((long) method << 32);
  }

  /** Writes the root and the overflow node at {@code base} (zeroed memory). */
  static void init(long base) {
    U.putLong(base + LINK, link(0, -1));
    U.putLong(base + (OVERFLOW << SHIFT) + LINK, link(0, -1));
  }

  /**
   * Memory of two nodes, always full, that every throwaway tree (Probe.pause: one per class
   * transformed, thousands) shares: each of their calls is counted on its overflow node, nobody
   * reads them, so the threads' racy updates of the same words lose nothing that matters (and
   * aligned longs never tear). Java's own allocation: it is never freed, never grows and is not
   * the flusher's.
   */
  static final long FULL = allocate(FIRST);

  /**
   * Memory for {@code nodes} nodes from Java's own allocator (not a TreeMemory region: it never
   * grows and the flusher never reads it), zeroed, with its root and overflow node written; freed
   * with {@code U.freeMemory}, if ever.
   */
  static long allocate(int nodes) {
    long base = U.allocateMemory((long) nodes << SHIFT);
    U.setMemory(base, (long) nodes << SHIFT, (byte) 0);
    init(base);
    return base;
  }
}
