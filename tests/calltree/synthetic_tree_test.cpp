#include "bn/calltree/synthetic_tree.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_stats.h"

using namespace bn::calltree;

namespace {

bool same_tree(const CallTree& a, const CallTree& b) {
  if (a.node_count() != b.node_count()) return false;
  for (NodeId n = 0; n < a.node_count(); ++n)
    if (a.parent(n) != b.parent(n) || a.node_name(n) != b.node_name(n) || a.cost(n) != b.cost(n)) return false;
  return true;
}

// Nodes whose method also labels one of their ancestors.
std::uint64_t recursive_nodes(const CallTree& t) {
  std::uint64_t count = 0;
  for (NodeId n = 1; n < t.node_count(); ++n)
    for (NodeId a = t.parent(n); a != kRootNode; a = t.parent(a))
      if (t.method(a) == t.method(n)) {
        ++count;
        break;
      }
  return count;
}

// About half the nodes leaves and interior out-degree 1.8-2.0 (seed 004 Tables 1 and 5), 50k
// nodes, mean and max depth within the bounds given.
void check_shape(const TreeStats& s, double mean_low, double mean_high, std::uint32_t max_low, std::uint32_t max_high) {
  const auto nodes = static_cast<double>(s.nodes);
  const double leaf_share = static_cast<double>(s.leaves) / nodes;
  const double mean_depth = static_cast<double>(s.depth_sum) / nodes;
  const double out_degree = static_cast<double>(s.interior_edges) / static_cast<double>(s.interior_nodes);
  CHECK(s.nodes == 50'000);
  CHECK(leaf_share > 0.42);
  CHECK(leaf_share < 0.55);
  CHECK(mean_depth >= mean_low);
  CHECK(mean_depth <= mean_high);
  CHECK(s.max_depth >= max_low);
  CHECK(s.max_depth <= max_high);
  CHECK(out_degree > 1.8);
  CHECK(out_degree < 2.0);
}

// Every node's stack, its methods from the root down.
std::set<std::string> stacks(const CallTree& t) {
  std::vector<std::string> stack(t.node_count());
  for (NodeId n = 1; n < t.node_count(); ++n) stack[n] = stack[t.parent(n)] + ";" + std::string(t.node_name(n));
  return {stack.begin() + 1, stack.end()};
}

}  // namespace

TEST_CASE("a 50k-node synthetic tree has the shape of seed 004's profiles") {
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const CallTree t = generate_synthetic_tree({50'000, seed});
    const TreeStats s = compute_stats(t);
    check_shape(s, 35.0, 60.0, 75, 135);
    CHECK(s.total_cost > 0);

    // Zipf-like popularity: a few methods label a large share of the nodes, most label few.
    std::vector<std::size_t> per_method;
    for (MethodId m = 0; m < t.method_count(); ++m) per_method.push_back(t.nodes_of(m).size());
    std::sort(per_method.rbegin(), per_method.rend());
    CHECK(per_method[0] > s.nodes / 50);
    CHECK(per_method[per_method.size() / 2] * 50 < per_method[0]);

    CHECK(recursive_nodes(t) > s.nodes / 100);
  }
}

TEST_CASE("a deep synthetic tree has the shape of seed 004's Table 1") {
  // Trade3 on WebSphere: mean depth 59.9 and 64.6, max depth 135, about half the nodes leaves,
  // interior out-degree 1.84 and 1.92.
  for (std::uint64_t seed : {1, 2}) {
    CAPTURE(seed);
    const CallTree t = generate_synthetic_tree({50'000, seed, false, true});
    const TreeStats s = compute_stats(t);
    check_shape(s, 60.0, 70.0, 135, 135);
    CHECK(t.metadata().find_extra("synthetic.shape") == std::optional<std::string_view>("deep"));
  }
}

TEST_CASE("the generator is deterministic in its seed") {
  CHECK(same_tree(generate_synthetic_tree({5'000, 7}), generate_synthetic_tree({5'000, 7})));
  CHECK_FALSE(same_tree(generate_synthetic_tree({5'000, 7}), generate_synthetic_tree({5'000, 8})));
}

TEST_CASE("the generator makes exactly the requested number of nodes, even small ones") {
  for (std::uint64_t n : {100, 101, 999, 12'345}) CHECK(generate_synthetic_tree({n, 1}).node_count() == n + 1);
}

TEST_CASE("the generator refuses sizes it cannot shape") {
  CHECK_THROWS_AS(generate_synthetic_tree({99, 1}), bn::Error);
  CHECK_THROWS_AS(generate_synthetic_tree({std::uint64_t{1} << 33, 1}), bn::Error);
}

TEST_CASE("a second metric of calls leaves the samples as they were and calls every node at least once") {
  const CallTree plain = generate_synthetic_tree({5'000, 3});
  const CallTree both = generate_synthetic_tree({5'000, 3, true});
  CHECK(same_tree(plain, both));  // the samples and the shape
  CHECK(plain.metric_count() == 1);
  REQUIRE(both.metric_count() == 2);
  CHECK(both.metric_spec(1).name == "calls");
  CHECK(both.metric_spec(1).unit == "count");
  CHECK(both.metric_cost(1, kRootNode) == 0);
  for (NodeId n = 1; n < both.node_count(); ++n) CHECK(both.metric_cost(1, n) >= 1);
  const CallTree again = generate_synthetic_tree({5'000, 3, true});
  for (NodeId n = 0; n < both.node_count(); ++n) CHECK(again.metric_cost(1, n) == both.metric_cost(1, n));
}

TEST_CASE("a fleet's hosts run the program's tree, each with its own costs and rare paths") {
  const std::set<std::string> program = stacks(generate_synthetic_tree({5'000, 3}));
  const CallTree one = generate_synthetic_tree({5'000, 3, false, false, 1});
  const CallTree two = generate_synthetic_tree({5'000, 3, false, false, 2});
  CHECK(same_tree(one, generate_synthetic_tree({5'000, 3, false, false, 1})));
  CHECK_FALSE(same_tree(one, two));
  CHECK(one.metadata().find_extra("synthetic.host") == std::optional<std::string_view>("1"));
  const std::set<std::string> a = stacks(one), b = stacks(two);
  CHECK(a.size() < program.size());
  CHECK(std::includes(program.begin(), program.end(), a.begin(), a.end()));
  CHECK(std::includes(program.begin(), program.end(), b.begin(), b.end()));
  std::vector<std::string> shared;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(shared));
  CHECK(shared.size() * 10 > a.size() * 8);
  CHECK(shared.size() < a.size());
  // Nodes left without cost below them are gone: every leaf has a cost.
  for (NodeId n = 1; n < one.node_count(); ++n)
    if (n + 1 == one.node_count() || one.parent(n + 1) != n) CHECK(one.cost(n) > 0);
}

TEST_CASE("a host's calls leave its samples as they were") {
  const CallTree plain = generate_synthetic_tree({5'000, 3, false, false, 4});
  const CallTree both = generate_synthetic_tree({5'000, 3, true, false, 4});
  CHECK(same_tree(plain, both));
  REQUIRE(both.metric_count() == 2);
  for (NodeId n = 1; n < both.node_count(); ++n) CHECK(both.metric_cost(1, n) >= 1);
}
