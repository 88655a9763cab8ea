// Property test: on random trees with plenty of recursion, every operation of TreeProfile
// equals a deliberately naive evaluation of the seed 004 sec. 2.2 set definitions. The naive
// model knows nothing of preorder, subtree sizes or cum-costs: a node is its calling context
// (the list of method names from the outermost frame), paths are found by trying every
// node, and along/final/descendants are explicit std::sets that are summed at the end
// (tree_profile_checker.h compares the two).
#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "naive_profile.h"
#include "random_stacks.h"
#include "stack_tree.h"
#include "tree_profile_checker.h"
#include "wide_sums.h"

using namespace bn::calltree;
using bn::iface::Summary;

namespace {

using testing::Calls;
using testing::Checker;
using testing::NaiveProfile;
using testing::pick;
using testing::random_case;
using testing::random_case_of_sums;
using testing::random_refining;
using testing::RandomCase;
using testing::strings;

// The stacks' costs as metric "calls" of a tree whose metric 0 has other, random costs, then
// made the tree's metric 0 by with_metric: what `--metric` and `set metric` search.
CallTree tree_under_second_metric(const testing::Stacks& stacks, std::mt19937& rng) {
  TreeBuilder builder;
  builder.declare_extra_metrics({{"calls", "count"}});
  for (const auto& [stack, cost] : stacks) {
    const NodeId node =
        builder.add_stack(testing::frames_of(builder, stack), static_cast<Cost>(rng() % 1000));  // the decoy
    builder.add_metric_cost(1, node, cost);
  }
  Metadata metadata;
  metadata.metric = "time";
  metadata.unit = "ns";
  const CallTree both = std::move(builder).build(std::move(metadata));
  return both.with_metric(*both.find_metric("calls"));
}

void run_case(std::mt19937& rng, bool large, bool second_metric = false, bool refining = false) {
  const RandomCase rc = random_case(rng, large);
  const std::set<std::string> refines = refining ? random_refining(rng, rc.alphabet) : std::set<std::string>{};
  const CallTree tree =
      second_metric ? tree_under_second_metric(rc.stacks, rng) : testing::tree_from_stacks(rc.stacks, refines);
  const NaiveProfile naive(rc.stacks, refines);
  TreeProfile p(tree);
  Checker checker(tree, p, naive);

  const auto initial = p.initial_summaries();
  std::vector<std::string> names;
  for (Summary s : initial) names.push_back(strings(p.path_of(s)).front());
  REQUIRE(names == std::vector<std::string>(naive.methods().begin(), naive.methods().end()));
  for (Summary s : initial) checker.check(s, strings(p.path_of(s)));

  // Random sequences resolved at once (path_summary finds their roots from the rarest method's
  // nodes), from a generator of their own; most were never built by extending.
  std::mt19937 paths(static_cast<unsigned>(tree.node_count() * 31 + initial.size()));
  for (int i = 0; i < 20; ++i) {
    Calls calls;
    for (int j = std::uniform_int_distribution<int>(1, 5)(paths); j > 0; --j) calls.push_back(pick(paths, rc.alphabet));
    const std::vector<std::string_view> views(calls.begin(), calls.end());
    checker.check_result(p.path_summary(views), calls);
  }

  // Random walks of extend/trim, sometimes with a name that is not an extension.
  for (int walk = 0; walk < 4; ++walk) {
    Summary s = pick(rng, initial);
    for (int step = 0; step < 12; ++step) {
      const Calls calls = strings(p.path_of(s));
      const int op = std::uniform_int_distribution<int>(0, 5)(rng);
      Calls expected;
      std::optional<Summary> next;
      if (op <= 3) {
        const bool top = op % 2 == 0;
        const auto extensions = strings(top ? p.top_extensions(s) : p.bottom_extensions(s));
        const std::string m = op < 2 && !extensions.empty() ? pick(rng, extensions) : pick(rng, rc.alphabet);
        // Listing extensions keeps the nodes found for extending by them; listing another
        // summary's extensions first makes the extension search the tree itself.
        if (op >= 2) {
          const Summary other = pick(rng, checker.visited());
          if (top)
            p.top_extensions(other);
          else
            p.bottom_extensions(other);
        }
        expected = calls;
        if (top)
          expected.insert(expected.begin(), m);
        else
          expected.push_back(m);
        next = top ? p.extend_top(s, m) : p.extend_bottom(s, m);
      } else {
        if (calls.size() > 1)
          expected = op == 4 ? Calls(calls.begin() + 1, calls.end()) : Calls(calls.begin(), calls.end() - 1);
        next = op == 4 ? p.trim_top(s) : p.trim_bottom(s);
      }
      checker.check_result(next, expected);
      if (next) s = *next;
    }
  }

  // Random sets (with repeats) of the summaries seen, and one summary to overlap with them.
  const auto& seen = checker.visited();
  for (int round = 0; round < 6; ++round) {
    std::vector<Summary> S;
    for (int i = std::uniform_int_distribution<int>(0, 5)(rng); i > 0; --i) S.push_back(pick(rng, seen));
    checker.check_set(S, pick(rng, seen));
  }
  // Pairs of random sets, from a generator of their own so that the cases above stay the same.
  std::mt19937 local(static_cast<unsigned>(tree.node_count() * 7919 + seen.size()));
  for (int round = 0; round < 6; ++round) {
    std::vector<Summary> S, T;
    for (int i = std::uniform_int_distribution<int>(0, 6)(local); i > 0; --i) S.push_back(pick(local, seen));
    for (int i = std::uniform_int_distribution<int>(0, 6)(local); i > 0; --i) T.push_back(pick(local, seen));
    checker.check_sets(S, T);
    std::vector<std::vector<Summary>> sets(std::uniform_int_distribution<std::size_t>(1, 5)(local));
    for (auto& U : sets)
      for (int i = std::uniform_int_distribution<int>(0, 3)(local); i > 0; --i) U.push_back(pick(local, seen));
    checker.check_overlaps(pick(local, seen), sets);
  }
  // Sets grown from earlier ones, from a generator of their own too.
  std::mt19937 grown(static_cast<unsigned>(tree.node_count() * 104729 + seen.size()));
  for (int round = 0; round < 3; ++round) {
    std::vector<Summary> T;
    for (int i = std::uniform_int_distribution<int>(1, 6)(grown); i > 0; --i) T.push_back(pick(grown, seen));
    checker.check_grown(grown, seen, T);
  }
  // Many sets swept, from a generator of its own too.
  std::mt19937 swept(static_cast<unsigned>(tree.node_count() * 15485863 + seen.size()));
  checker.check_swept_overlaps(swept, seen);
  // Zooming's walks, from a generator of their own too.
  std::mt19937 walks(static_cast<unsigned>(tree.node_count() * 65537 + seen.size()));
  for (int walk = 0; walk < 4; ++walk) {
    const bn::iface::End end = walk % 2 == 0 ? bn::iface::End::top : bn::iface::End::bottom;
    checker.check_walk(walks, pick(walks, checker.visited()), end, 8, rc.alphabet);
  }
}

}  // namespace

TEST_CASE("on random recursive trees every operation equals the naive set definitions") {
  std::mt19937 rng(20040607);
  for (int i = 0; i < 250; ++i) {
    CAPTURE(i);
    run_case(rng, false);
  }
}

TEST_CASE("under a profile's second metric every operation equals the naive recount of that metric") {
  std::mt19937 rng(15);
  for (int i = 0; i < 100; ++i) {
    CAPTURE(i);
    run_case(rng, i % 10 == 0, true);
  }
}

TEST_CASE("with refining methods every node's base cost is its naive definition and they add up to the total") {
  std::mt19937 rng(2004);
  for (int i = 0; i < 300; ++i) {
    CAPTURE(i);
    const RandomCase rc = random_case(rng, i % 10 == 0);
    const std::set<std::string> refines = random_refining(rng, rc.alphabet);
    const CallTree tree = testing::tree_from_stacks(rc.stacks, refines);
    const NaiveProfile naive(rc.stacks, refines);
    bn::iface::Amount total = 0;
    for (const auto& [context, cost] : naive.nodes()) {
      const NodeId n = testing::node_of(tree, context);
      CHECK(tree.base_cost(n) == naive.base(context));
      CHECK(tree.cost(n) == cost);
      total += tree.base_cost(n);
    }
    CHECK(total == tree.total_cost());
  }
}

TEST_CASE("with refining methods every operation equals the naive definitions with typed time in its frame's base") {
  std::mt19937 rng(2000);
  for (int i = 0; i < 100; ++i) {
    CAPTURE(i);
    run_case(rng, i % 15 == 0, false, true);
  }
}

TEST_CASE("on larger random trees the sweeps agree with the naive set definitions") {
  std::mt19937 rng(31337);
  for (int i = 0; i < 15; ++i) {
    CAPTURE(i);
    run_case(rng, true);
  }
}

// Label sets keep their prefix sums in 64 bits until one leaves them, then in 128: on the trees
// of add_wide_sums, where one method's base or cum is past 2^63, the sets holding it (grown step
// by step, against other sets and summaries) still equal the naive set definitions.
TEST_CASE("summary sets whose sums leave 64 bits equal the naive set definitions") {
  std::mt19937 rng(1964);
  for (int i = 0; i < 60; ++i) {
    CAPTURE(i);
    const RandomCase rc = random_case_of_sums(rng, i % 6 == 0, 1 + i % 2);
    const CallTree tree = testing::tree_from_stacks(rc.stacks);
    const NaiveProfile naive(rc.stacks);
    TreeProfile p(tree);
    Checker checker(tree, p, naive);
    std::vector<Summary> seen = p.initial_summaries();
    for (std::size_t k = 0, methods = seen.size(); k < methods; ++k)
      for (std::string_view m : p.bottom_extensions(seen[k]))
        if (const auto longer = p.extend_bottom(seen[k], m)) seen.push_back(*longer);
    for (int round = 0; round < 3; ++round) {
      std::vector<Summary> S, T;
      for (int k = std::uniform_int_distribution<int>(1, 6)(rng); k > 0; --k) S.push_back(pick(rng, seen));
      for (int k = std::uniform_int_distribution<int>(1, 6)(rng); k > 0; --k) T.push_back(pick(rng, seen));
      checker.check_set(S, pick(rng, seen));
      checker.check_sets(S, T);
      checker.check_overlaps(pick(rng, seen), {S, T});
      checker.check_grown(rng, seen, T);
    }
  }
}
