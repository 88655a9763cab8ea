package bottlenecks.runtime;

/**
 * The native memory of the threads' trees (Nodes), the agent's (tree_memory.cpp; the agent
 * registers these natives at start, java_side.cpp). A tree's region is reserved once, large, and
 * committed in steps as it grows, so it never moves: the owner keeps its base, and the flusher
 * reads it in place. The agent bounds what all regions commit together (treememory=,
 * docs/recorder.md) and unmaps a region once the flusher has read its ended thread's last nodes.
 * Called only where a tree is created or grows, never per event.
 */
public final class TreeMemory {
  private TreeMemory() {}

  /** Bytes a new region has committed: 64 nodes (tree_memory.cpp's kFirstCommit). */
  static final int FIRST_BYTES = 4096;

  /**
   * A new region's base address, its first {@link #FIRST_BYTES} committed and zeroed (granted
   * even past the bound, so that every thread's calls are counted somewhere); 0 if none could be
   * mapped.
   */
  static native long create();

  /** Commits more of the region at {@code base}; returns the bytes committed now (unchanged if the bound is reached). */
  static native long grow(long base);

  /** Bytes committed by every live region: what treememory= bounds (for tests). */
  public static native long committed();
}
