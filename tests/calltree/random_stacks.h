#pragma once
// Test helper: random collapsed stacks over a small alphabet, so that recursion (a method below
// itself) is common. Costs are mostly positive, sometimes zero or negative (the comparative
// backend relies on signs).

#include <random>
#include <set>
#include <string>
#include <vector>

#include "random_pick.h"
#include "stack_tree.h"

namespace bn::calltree::testing {

using bn::test::pick;

struct RandomCase {
  Stacks stacks;
  std::vector<std::string> alphabet;
};

inline RandomCase random_case(std::mt19937& rng, bool large) {
  RandomCase c;
  const int letters = std::uniform_int_distribution<int>(1, 5)(rng);
  for (int i = 0; i < letters; ++i) c.alphabet.push_back(std::string(1, static_cast<char>('a' + i)));
  const int count = large ? 150 : std::uniform_int_distribution<int>(1, 25)(rng);
  std::uniform_int_distribution<int> depth(1, 12), letter(0, letters - 1), cost(0, 99);
  for (int s = 0; s < count; ++s) {
    std::string stack;
    for (int d = depth(rng); d > 0; --d) stack += (stack.empty() ? "" : ";") + c.alphabet[letter(rng)];
    // Mostly positive, sometimes zero or negative (the comparative backend relies on signs).
    c.stacks.push_back({stack, cost(rng) - (rng() % 8 == 0 ? 120 : 0)});
  }
  return c;
}

// Each letter of the alphabet refines its caller's time (CallTree::with_refining_methods, as a
// view's typed-time names do) with probability 1/2: none, some, or all of them.
inline std::set<std::string> random_refining(std::mt19937& rng, const std::vector<std::string>& alphabet) {
  std::set<std::string> refining;
  for (const std::string& letter : alphabet)
    if (rng() % 2 == 0) refining.insert(letter);
  return refining;
}

}  // namespace bn::calltree::testing
