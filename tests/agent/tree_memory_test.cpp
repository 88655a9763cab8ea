// TreeMemory (recorder-agent/src/calltree/tree_memory.cpp): the per-thread trees' regions grow by doubling
// until the bound, the first page of each is granted past it, and a released region's bytes
// count for others again.

#include "calltree/tree_memory.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

using bn::agent::TreeMemory;

namespace {
constexpr std::uint64_t kFirst = TreeMemory::kFirstCommit;
}  // namespace

TEST_CASE("a region grows by doubling until the bound, and its committed bytes are writable") {
  TreeMemory memory(64 * kFirst);
  const std::uintptr_t base = memory.create();
  REQUIRE(base != 0);
  CHECK(memory.committed() == kFirst);
  std::uint64_t have = kFirst;
  for (std::uint64_t want = 2 * kFirst; want <= 64 * kFirst; want *= 2) {
    have = memory.grow(base);
    CHECK(have == want);
    std::memset(reinterpret_cast<void*>(base), 1, have);  // faults if not committed
  }
  CHECK(memory.grow(base) == have);  // at the bound: unchanged
  CHECK(memory.committed() == 64 * kFirst);
  CHECK(memory.peak() == 64 * kFirst);
  memory.release(base);
  CHECK(memory.committed() == 0);
  CHECK(memory.peak() == 64 * kFirst);
}

TEST_CASE("the last step takes what is left of the bound; a new region's first page is granted past it") {
  TreeMemory memory(40 * kFirst);
  const std::uintptr_t a = memory.create();
  REQUIRE(a != 0);
  for (int i = 0; i < 5; ++i) (void)memory.grow(a);  // 32 pages
  CHECK(memory.grow(a) == 40 * kFirst);              // 8 more, not 32
  const std::uintptr_t b = memory.create();
  REQUIRE(b != 0);
  CHECK(memory.committed() == 41 * kFirst);
  CHECK(memory.grow(b) == kFirst);  // nothing left
  memory.release(a);
  CHECK(memory.grow(b) == 2 * kFirst);  // a's bytes count for b now
  CHECK(memory.committed() == 2 * kFirst);
  memory.release(b);
  CHECK(memory.committed() == 0);
}

TEST_CASE("an unknown base grows nothing and releases nothing") {
  TreeMemory memory(64 * kFirst);
  CHECK(memory.grow(12345) == 0);
  memory.release(12345);
  CHECK(memory.committed() == 0);
}
