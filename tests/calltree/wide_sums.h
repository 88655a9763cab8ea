#pragma once
// Test helper: random cases whose sums leave 64 bits while every node's cum-cost fits, for the
// property tests of the exact 128-bit paths (label sets' prefix sums, per-method figures),
// and random cases of large costs, whose sums may leave 32 bits (the labels' merged tops).

#include <random>
#include <string>
#include <vector>

#include "random_stacks.h"

namespace bn::calltree::testing {

// Adds to a random case five pairs of stacks under one method m, each pair S;pK (cost -2^61) and
// below it either S;pK;m (cost 2^61) or S;pK;m;qK (cost 2^61), S one of its stacks or none: every
// node's cum-cost still fits in 64 bits (each pair cancels under S;pK), but base([m]) adds up
// five times 2^61, past 2^63, or (`below`) cum([m]) does and base([m]) stays small; there S has
// no frame m, so the five nodes of m are outermost and each counts its 2^61 in cum([m]).
inline void add_wide_sums(std::mt19937& rng, RandomCase& rc, bool below) {
  constexpr Cost kHuge = Cost{1} << 61;
  const std::string m = pick(rng, rc.alphabet);
  std::vector<std::string> outer{""};  // a pair right under the root
  for (const auto& [stack, cost] : rc.stacks)
    if (!below || (";" + stack + ";").find(";" + m + ";") == std::string::npos) outer.push_back(stack + ";");
  for (int k = 0; k < 5; ++k) {
    const std::string pair = pick(rng, outer) + "p" + std::to_string(k);
    rc.stacks.push_back({pair, -kHuge});
    rc.stacks.push_back({pair + ";" + m + (below ? ";q" + std::to_string(k) : ""), kHuge});
  }
}

// A random case whose sums fit 64 bits (kind 0), or with add_wide_sums: base (kind 1) or cum
// (kind 2) of one method past 64 bits.
inline RandomCase random_case_of_sums(std::mt19937& rng, bool large, int kind) {
  RandomCase rc = random_case(rng, large);
  if (kind != 0) add_wide_sums(rng, rc, kind == 2);
  return rc;
}

// A random case with every cost times 2^shift: at 20-26, sums of many cums pass 2^31 in some
// cases and not in others.
inline RandomCase random_case_scaled(std::mt19937& rng, bool large, int shift) {
  RandomCase rc = random_case(rng, large);
  for (auto& stack : rc.stacks) stack.second *= Cost{1} << shift;
  return rc;
}

}  // namespace bn::calltree::testing
