#pragma once
// The native memory of mode=calltree's per-thread trees (bottlenecks.runtime.Nodes lays a tree
// out, TreeMemory.java calls here). Each tree gets a region: a large reservation (PROT_NONE,
// MAP_NORESERVE: address space, no memory) committed (read-write) in doubling steps as the tree
// grows, so a tree never moves or is copied, its owner keeps its base, and the flusher reads
// [0, count) in place at any time without a lock. What all live regions commit together is
// bounded (treememory=, docs/recorder.md): a tree that cannot grow stops adding calling contexts
// (its calls go to its overflow node) instead of the program running out of memory, which is
// what a Java array did (docs/performance.md, "A real source tree"). A region is unmapped once
// the flusher has read its ended thread's last nodes, and its memory counts for others again.
//
// Called on the program's threads where a tree is created or grows (a JNI call each, never per
// event) and on the flusher: every call takes the mutex.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace bn::agent {

class TreeMemory {
 public:
  // Bytes a new region commits (64 nodes; TreeMemory.FIRST_BYTES in Java), granted even past the
  // bound, so that every thread has its root and overflow node and its calls are counted.
  static constexpr std::uint64_t kFirstCommit = 4096;

  // `bound`: bytes all regions may commit together.
  explicit TreeMemory(std::uint64_t bound) : bound_(bound) {}

  // A new region's base, kFirstCommit bytes committed (zero); 0 if no address space is left.
  std::uintptr_t create();
  // Commits more of the region at `base` (double what it has, or what is left of the bound);
  // returns the bytes it has committed now, unchanged when the bound is reached.
  std::uint64_t grow(std::uintptr_t base);
  // Unmaps the region at `base`; its committed bytes count for others again.
  void release(std::uintptr_t base);

  std::uint64_t bound() const { return bound_; }
  std::uint64_t committed() const;
  // The most committed at once since construction or the last restart_peak().
  std::uint64_t peak() const;
  // A new recording's peak starts from what is committed now.
  void restart_peak();

 private:
  struct Region {
    std::uint64_t reserved;
    std::uint64_t committed;
  };
  const std::uint64_t bound_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uintptr_t, Region> regions_;  // guarded by mutex_, as the two below
  std::uint64_t committed_ = 0;
  std::uint64_t peak_ = 0;
};

// The default bound: an eighth of the machine's physical memory (docs/recorder.md, treememory=).
std::uint64_t default_tree_memory();

}  // namespace bn::agent
