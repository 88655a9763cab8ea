#pragma once
// Small random call trees for the comparative property tests.

#include <random>
#include <string>
#include <vector>

#include "../calltree/stack_tree.h"

namespace bn::test {

// Random stacks over `alphabet`; methods repeat along a stack, so trees have recursion.
inline bn::calltree::CallTree random_tree(std::mt19937& rng, const std::vector<std::string>& alphabet) {
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> depth(1, 6);
  std::uniform_int_distribution<int> cost(0, 9);
  std::uniform_int_distribution<int> count(0, 14);
  bn::calltree::testing::Stacks stacks(static_cast<std::size_t>(count(rng)));
  for (auto& [stack, c] : stacks) {
    for (int j = depth(rng); j > 0; --j) stack += (stack.empty() ? "" : ";") + alphabet[pick(rng)];
    c = cost(rng);
  }
  return bn::calltree::testing::tree_from_stacks(stacks);
}

}  // namespace bn::test
