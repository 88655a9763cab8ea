// RemappedArray (recorder-agent/src/core/remapped_array.h): random appends and resizes, small and past
// glibc's mmap threshold (where realloc moves the mapping), against a std::vector doing the same.

#include "core/remapped_array.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using bn::agent::RemappedArray;

namespace {

void check_same(const RemappedArray<std::int64_t>& a, const std::vector<std::int64_t>& v) {
  REQUIRE(a.size() == v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    if (a[i] != v[i]) REQUIRE(a[i] == v[i]);  // one failure reported, not millions of checks
}

}  // namespace

TEST_CASE("a remapped array holds what a vector holds after the same appends and resizes") {
  std::mt19937 rng(2026);
  for (int round = 0; round < 20; ++round) {
    CAPTURE(round);
    RemappedArray<std::int64_t> a;
    std::vector<std::int64_t> v;
    // Up to 2^23 entries (64 MiB): past the 32 MiB most that glibc keeps in its heap.
    const std::size_t most = std::size_t{1} << (round % 2 == 0 ? 12 : 23);
    for (int step = 0; step < 40; ++step) {
      const std::int64_t value = static_cast<std::int64_t>(rng());
      if (rng() % 3 == 0) {
        const std::size_t n = rng() % most;
        a.resize(n, value);
        v.resize(n, value);
      } else {
        for (std::size_t k = rng() % (most / 8 + 1); k > 0 && v.size() < most; --k) {
          a.push_back(value + static_cast<std::int64_t>(k));
          v.push_back(value + static_cast<std::int64_t>(k));
        }
      }
      if (!v.empty()) {
        const std::size_t i = rng() % v.size();
        a[i] = v[i] = value ^ 0x5a5a;
      }
    }
    check_same(a, v);
    RemappedArray<std::int64_t> moved = std::move(a);
    check_same(moved, v);
    CHECK(a.size() == 0);  // NOLINT(bugprone-use-after-move): a moved-from array is empty
    a = std::move(moved);
    check_same(a, v);
  }
}
