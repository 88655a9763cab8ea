#include "calltree/tree_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace bn::agent {
namespace {

// Node ids are Java ints: no tree holds more than 2^31 nodes of 64 bytes.
constexpr std::uint64_t kMaxRegion = std::uint64_t{1} << 37;
// The smallest reservation tried when the address space runs short (thousands of threads, each
// reserving up to the bound).
constexpr std::uint64_t kMinRegion = 64 * TreeMemory::kFirstCommit;
std::uint64_t page_size() {
  const long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<std::uint64_t>(page) : 4096;
}

std::uint64_t round_up(std::uint64_t n, std::uint64_t to) { return (n + to - 1) / to * to; }

}  // namespace

std::uintptr_t TreeMemory::create() {
  const std::uint64_t page = page_size();
  const std::uint64_t first = round_up(kFirstCommit, page);
  std::uint64_t size = std::max(round_up(std::min(bound_, kMaxRegion), page), first);
  void* at = MAP_FAILED;
  for (; at == MAP_FAILED; size /= 2) {
    at = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (at != MAP_FAILED || size / 2 < std::max(kMinRegion, first)) break;
  }
  if (at == MAP_FAILED) return 0;
  if (mprotect(at, first, PROT_READ | PROT_WRITE) != 0) {
    munmap(at, size);
    return 0;
  }
  const auto base = reinterpret_cast<std::uintptr_t>(at);
  const std::lock_guard<std::mutex> lock(mutex_);
  regions_[base] = Region{size, first};
  committed_ += first;
  peak_ = std::max(peak_, committed_);
  return base;
}

std::uint64_t TreeMemory::grow(std::uintptr_t base) {
  const std::uint64_t page = page_size();
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = regions_.find(base);
  if (it == regions_.end()) return 0;
  Region& r = it->second;
  const std::uint64_t left = committed_ < bound_ ? bound_ - committed_ : 0;
  const std::uint64_t more = std::min({r.committed, r.reserved - r.committed, left / page * page});
  if (more == 0) return r.committed;
  // 4 KiB pages: transparent huge pages (madvise(MADV_HUGEPAGE) from 32 MiB, which this
  // kernel grants only to who asks) made javac compiling its module no faster and 0.4 GB larger
  // (bench/LOG.md, "Native trees").
  if (mprotect(reinterpret_cast<char*>(base) + r.committed, more, PROT_READ | PROT_WRITE) != 0) return r.committed;
  r.committed += more;
  committed_ += more;
  peak_ = std::max(peak_, committed_);
  return r.committed;
}

void TreeMemory::release(std::uintptr_t base) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = regions_.find(base);
  if (it == regions_.end()) return;
  munmap(reinterpret_cast<void*>(base), it->second.reserved);
  committed_ -= it->second.committed;
  regions_.erase(it);
}

std::uint64_t TreeMemory::committed() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return committed_;
}

std::uint64_t TreeMemory::peak() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

void TreeMemory::restart_peak() {
  const std::lock_guard<std::mutex> lock(mutex_);
  peak_ = committed_;
}

std::uint64_t default_tree_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  return pages > 0 ? static_cast<std::uint64_t>(pages) * page_size() / 8 : std::uint64_t{1} << 30;
}

}  // namespace bn::agent
