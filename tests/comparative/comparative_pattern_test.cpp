// Sequences with gaps and aspects in a comparison (seed 000 sec. 2-3 over seed 004 sec. 2.2):
// each side measures its own matches and the comparison subtracts, by hand-computed numbers.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../calltree/stack_tree.h"
#include "bn/calltree/tree_profile.h"
#include "bn/comparative/comparative_profile.h"
#include "bn/iface/call_pattern.h"

namespace {

using bn::comparative::ComparativeProfile;
using bn::iface::CallPattern;

// A is the paper's figure 2 (total 100); B has c under a and b too, and f below c (total 158).
bn::calltree::CallTree other_run() {
  return bn::calltree::testing::tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;c", 3}, {"a;c", 2}, {"a;c;f", 150}});
}

CallPattern parse(std::string_view text, std::string_view x_pattern = "c|f") {
  const auto x = std::make_shared<const bn::base::MethodPattern>(x_pattern);
  return bn::iface::parse_call_pattern(text, [&](std::string_view name) { return name == "x" ? x : nullptr; });
}

}  // namespace

TEST_CASE("a sequence with a gap or an aspect is A's matches minus B's") {
  const auto ta = bn::calltree::testing::figure2(), tb = other_run();
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b);

  const auto gap = c.pattern_summary(parse("a;..;c"));
  REQUIRE(gap);
  CHECK(c.cum_of(*gap) == 97 - 155);  // A: both c subtrees; B: 3 + 2 + 150
  CHECK(c.base_of(*gap) == 15 - 5);
  CHECK(c.path_of(*gap) == std::vector<std::string_view>{"a", "..", "c"});

  const auto aspect = c.pattern_summary(parse(":x"));
  REQUIRE(aspect);
  CHECK(c.cum_of(*aspect) == 97 - 155);
  CHECK(c.base_of(*aspect) == 15 - 155);  // f's own cost counts in B's base
  // The same name with another definition is another summary.
  const auto narrower = c.pattern_summary(parse(":x", "c"));
  REQUIRE(narrower);
  CHECK(*narrower != *aspect);
  CHECK(c.base_of(*narrower) == 15 - 5);

  // Extensions are the union of both sides'; the refinement through a gap merges by name.
  CHECK(c.bottom_extensions(*gap) == std::vector<std::string_view>{"d", "e", "f"});
  auto below = c.gap_extensions(*gap);
  std::sort(below.begin(), below.end(), [](const auto& x, const auto& y) { return x.method < y.method; });
  REQUIRE(below.size() == 3);
  CHECK(below[0].method == "d");
  CHECK(below[0].cum == 50);
  CHECK(below[2].method == "f");
  CHECK(below[2].cum == -150);

  // Trimming to methods only gives the plain summary; a sequence only B has is B's, negated.
  const auto trimmed = c.trim_bottom(*gap);
  REQUIRE(trimmed);
  CHECK(c.path_of(*trimmed) == std::vector<std::string_view>{"a"});
  CHECK(c.cum_of(*trimmed) == 100 - 158);
  const auto only_b = c.pattern_summary(parse("a;..;f"));
  REQUIRE(only_b);
  CHECK(c.cum_of(*only_b) == -150);
  CHECK_FALSE(c.sides(*only_b)->in_a);

  // Totals over a set that mixes both kinds count each measurement once on each side.
  const std::vector<bn::iface::Summary> set = {*gap, *aspect, *trimmed};
  CHECK(c.total_cum_of(set) == 100 - 158);
}
