// Large allocations on transparent huge pages. Opening a 10M-node profile builds a dozen
// per-node arrays of 40-80 MB; on 4 KiB pages that is 140,000 page faults, which took 0.8 of the
// 2.2 s of CPU an open cost on the project's machine, and TLB misses slowed the passes over them.
// Blocks of at least 4 MiB are therefore 2 MiB-aligned and advised MADV_HUGEPAGE, which the
// kernel honours when /sys/kernel/mm/transparent_hugepage/enabled is "madvise" or "always"
// (Debian's default is "madvise"): the same open then costs 0.75 s of CPU.
// glibc offers this only as a start-up tunable (glibc.malloc.hugetlb), hence the replacement of
// the global operator new in the executable (never in the agent, which lives in a JVM).
// Only the whole huge pages inside a block are advised: advising its rounded-up end too made
// the 4.4 MB columns of a 1.1M-node profile a third larger (bench/scale's peak 92 instead of 75
// bytes per node), and the tail is a few 4 KiB pages. Huge pages only from 16 MiB on kept that
// memory but tripled a first `suggest` or `path` there (4 KiB faults of the method index and
// the figures: 28 -> 91 ms of CPU).
//
// Every block comes from malloc or aligned_alloc, so the library's operator delete (free) releases
// it; only the two allocating forms below are replaced (libstdc++'s nothrow and array forms call
// them).

#include <malloc.h>
#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kLargeBlock = std::size_t{4} << 20;

// Large blocks are also always mapped on their own and unmapped when freed. By default glibc
// raises its mmap threshold each time such a block is freed (up to 32 MiB) and serves the next
// ones from the heap, where a command's transient lists (a `suggest` of 156k methods, the merged
// tops of 50 labels) leave holes that the small blocks of later commands split: in bench/scale's
// `select` with 50 labels at 10M nodes, 20 `suggest`s grew the heap by 150 MB of free memory
// (73.2 bytes/node at the peak, 56.3 with the thresholds fixed; docs/performance.md "Labels").
// Fixing the mmap threshold fixes the trim threshold too, at 128 KiB: it is set to twice the mmap
// threshold, as glibc's own adjustment would, so the heap's top is not given back and faulted in
// again by every command (a fresh page costs more than its zeroing on this virtual machine).
[[maybe_unused]] const bool kThresholdsFixed = mallopt(M_MMAP_THRESHOLD, static_cast<int>(kLargeBlock)) == 1 &&
                                               mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kLargeBlock)) == 1;

void* allocate(std::size_t bytes) {
  if (bytes < kLargeBlock) {
    if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
    throw std::bad_alloc();
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (p == nullptr) throw std::bad_alloc();
  (void)::madvise(p, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);  // a kernel without THP ignores it
  return p;
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate(bytes); }
void* operator new[](std::size_t bytes) { return allocate(bytes); }
