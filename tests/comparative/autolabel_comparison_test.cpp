// autolabel on A − B (search/autolabel.h's trunk rule in a comparison): the one method that
// regressed under main is proposed, though it carries all of main's net change.
#include <doctest/doctest.h>

#include "../calltree/stack_tree.h"
#include "bn/calltree/tree_profile.h"
#include "bn/comparative/comparative_profile.h"
#include "bn/search/autolabel.h"

using bn::calltree::testing::tree_from_stacks;

TEST_CASE("a regression in main's one new callee is proposed, though main's change is all of it") {
  // A: main spends 1000 in work and 400 in a new leaf; B: 1390 in work. A − B: main +10, work
  // −390, leaf +400. By the difference the leaf would carry main (400 >= 0.95 · 10) and be
  // trunk; by both sides' costs it is 400 of main's 2790.
  const auto ta = tree_from_stacks({{"main;work;parse", 1000}, {"main;leaf", 400}});
  const auto tb = tree_from_stacks({{"main;work;parse", 1390}});
  bn::calltree::TreeProfile a(ta), b(tb);
  bn::comparative::ComparativeProfile p({&a}, {&b});
  bn::search::AutolabelOptions options;
  options.count = 5;
  options.direction = +1;
  const auto result = bn::search::autolabel(p, options);
  REQUIRE(result.proposals.size() == 1);
  CHECK(p.path_of(result.proposals.front().summary) == std::vector<std::string_view>{"leaf"});
  // Towards B: work (or its leaf parse) got faster by as much.
  options.direction = -1;
  const auto faster = bn::search::autolabel(p, options);
  REQUIRE(faster.proposals.size() == 1);
  CHECK(p.path_of(faster.proposals.front().summary).back() == "parse");
}
