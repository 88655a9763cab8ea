#pragma once
// Test helper shared by the random property tests: one element of a vector, uniformly.

#include <cstddef>
#include <random>
#include <vector>

namespace bn::test {

// One of `items` (not empty), uniformly.
template <typename T>
const T& pick(std::mt19937& rng, const std::vector<T>& items) {
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

}  // namespace bn::test
