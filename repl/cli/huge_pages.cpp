// Large allocations on transparent huge pages. Opening a 10M-node profile builds a dozen
// per-node arrays of 40-80 MB; on 4 KiB pages that is 140,000 page faults, which took 0.8 of the
// 2.2 s of CPU an open cost on the project's machine, and TLB misses slowed the passes over them.
// Blocks of at least 4 MiB are therefore 2 MiB-aligned and advised MADV_HUGEPAGE, which the
// kernel honours when /sys/kernel/mm/transparent_hugepage/enabled is "madvise" or "always"
// (Debian's default is "madvise"): the same open then costs 0.75 s of CPU (docs/performance.md).
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

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kLargeBlock = std::size_t{4} << 20;

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
