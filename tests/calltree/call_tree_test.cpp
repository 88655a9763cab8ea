#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_builder.h"

using namespace bn::calltree;

namespace {

// Paper figure 2 (seed 004), as stacks: a 1 / a;b 2 / a;b;c 10 / a;b;c;d 50 / a;c 5 / a;c;e 32.
CallTree figure2() {
  TreeBuilder b;
  const MethodId a = b.intern("a"), bb = b.intern("b"), c = b.intern("c"), d = b.intern("d"), e = b.intern("e");
  b.add_stack(std::vector{a}, 1);
  b.add_stack(std::vector{a, bb}, 2);
  b.add_stack(std::vector{a, bb, c}, 10);
  b.add_stack(std::vector{a, bb, c, d}, 50);
  b.add_stack(std::vector{a, c}, 5);
  b.add_stack(std::vector{a, c, e}, 32);
  return std::move(b).build({});
}

}  // namespace

TEST_CASE("the builder lays figure 2 out in preorder with subtree sizes and cum-costs") {
  const CallTree t = figure2();
  REQUIRE(t.node_count() == 7);  // six call-tree nodes plus the synthetic root
  const std::vector<std::string> names = {"(root)", "a", "b", "c", "d", "c", "e"};
  for (NodeId n = 0; n < t.node_count(); ++n) CHECK(t.node_name(n) == names[n]);
  CHECK(t.subtree_size(0) == 7);
  CHECK(t.subtree_size(1) == 6);
  CHECK(t.subtree_size(2) == 3);
  CHECK(t.parent(5) == 1);
  CHECK(t.depth(4) == 4);
  CHECK(t.cum_cost(1) == 100);
  CHECK(t.cum_cost(3) == 60);
  CHECK(t.total_cost() == 100);
  CHECK(t.is_descendant(4, 2));
  CHECK_FALSE(t.is_descendant(5, 2));
  CHECK_FALSE(t.is_descendant(2, 2));
}

TEST_CASE("children are visited in order without child lists") {
  const CallTree t = figure2();
  std::vector<NodeId> kids;
  for (NodeId c : t.children(1)) kids.push_back(c);
  CHECK(kids == std::vector<NodeId>{2, 5});
  CHECK(t.children(4).empty());
}

TEST_CASE("each method's nodes are indexed in preorder") {
  const CallTree t = figure2();
  const auto c = t.find_method("c");
  REQUIRE(c);
  const auto nodes = t.nodes_of(*c);
  CHECK(std::vector<NodeId>(nodes.begin(), nodes.end()) == std::vector<NodeId>{3, 5});
  CHECK_FALSE(t.find_method("zzz"));
}

// nodes_of scans the method column for the first CallTree::kScannedMethods methods asked, then
// indexes every node: asked in any order, again and again, each method's list is the naive one
// (its nodes by a scan of node_name), on either side of the switch, and the spans handed out
// before the switch still hold their lists after it.
TEST_CASE("each method's nodes are the naive ones whether scanned or indexed") {
  std::mt19937 rng(2004);
  for (int round = 0; round < 60; ++round) {
    CAPTURE(round);
    const int letters = 1 + static_cast<int>(rng() % 12);
    TreeBuilder b;
    if (round % 2 == 1) b.intern("never.called");  // a method no node is labelled with
    std::vector<MethodId> alphabet;
    for (int k = 0; k < letters; ++k) alphabet.push_back(b.intern("m" + std::to_string(k)));
    for (int stacks = 1 + static_cast<int>(rng() % 30); stacks > 0; --stacks) {
      std::vector<MethodId> stack(1 + rng() % 10);
      for (MethodId& m : stack) m = alphabet[rng() % alphabet.size()];
      b.add_stack(stack, 1);
    }
    const CallTree t = std::move(b).build({});
    auto naive = [&](MethodId m) {
      std::vector<NodeId> nodes;
      for (NodeId n = 1; n < t.node_count(); ++n)
        if (t.node_name(n) == t.method_name(m)) nodes.push_back(n);
      return nodes;
    };
    std::vector<std::pair<MethodId, std::span<const NodeId>>> given;
    for (int ask = 0; ask < 2 * static_cast<int>(t.method_count()); ++ask) {
      const auto m = static_cast<MethodId>(rng() % t.method_count());
      const std::span<const NodeId> nodes = t.nodes_of(m);
      CHECK(std::vector<NodeId>(nodes.begin(), nodes.end()) == naive(m));
      given.emplace_back(m, nodes);
    }
    for (const auto& [m, nodes] : given) CHECK(std::vector<NodeId>(nodes.begin(), nodes.end()) == naive(m));
  }
}

// Depths are figured on the first depth(): on the tree and on a copy of it (which figures its
// own), each node's is the number of its ancestors below the synthetic root.
TEST_CASE("depths figured on first use count each node's ancestors") {
  std::mt19937 rng(1966);
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    TreeBuilder b;
    std::vector<MethodId> alphabet;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 8); ++k) alphabet.push_back(b.intern("m" + std::to_string(k)));
    for (int stacks = 1 + static_cast<int>(rng() % 30); stacks > 0; --stacks) {
      std::vector<MethodId> stack(1 + rng() % 12);
      for (MethodId& m : stack) m = alphabet[rng() % alphabet.size()];
      b.add_stack(stack, 1);
    }
    const CallTree t = std::move(b).build({});
    const CallTree copy = t.with_metric(0);
    for (const CallTree* tree : {&t, &copy}) {
      for (NodeId n = 0; n < tree->node_count(); ++n) {
        std::uint32_t ancestors = 0;
        for (NodeId a = n; a != kRootNode; a = tree->parent(a)) ++ancestors;
        CHECK(tree->depth(n) == ancestors);
      }
    }
  }
}

TEST_CASE("build rejects a parent that does not come before its child") {
  StringTable names;
  names.intern("a");
  NodeTable table{{kNoNode, 2, 1}, {kNoMethod, 0, 0}, {0, 1, 1}};
  CHECK_THROWS_WITH_AS(CallTree::build(std::move(table), std::move(names), {}),
                       doctest::Contains("node 1 has parent 2"), bn::Error);
}

TEST_CASE("build rejects out-of-range method ids and duplicate siblings") {
  {
    StringTable names;
    names.intern("a");
    NodeTable table{{kNoNode, 0}, {kNoMethod, 5}, {0, 1}};
    CHECK_THROWS_WITH_AS(CallTree::build(std::move(table), std::move(names), {}), doctest::Contains("method id 5"),
                         bn::Error);
  }
  {
    StringTable names;
    names.intern("a");
    NodeTable table{{kNoNode, 0, 0}, {kNoMethod, 0, 0}, {0, 1, 1}};
    CHECK_THROWS_WITH_AS(CallTree::build(std::move(table), std::move(names), {}),
                         doctest::Contains("two children labelled 'a'"), bn::Error);
  }
}

// The sibling check against a naive one: each parent's children listed by a scan of the table,
// parents in increasing order, the first child whose method an earlier sibling has.
TEST_CASE("on random trees in preorder the sibling check finds the naive first repeat") {
  std::mt19937 rng(1978);
  int refused = 0;
  for (int round = 0; round < 400; ++round) {
    CAPTURE(round);
    const int letters = 2 + static_cast<int>(rng() % 40), nodes = 2 + static_cast<int>(rng() % 80);
    NodeTable table{{kNoNode}, {kNoMethod}, {0}};
    std::vector<NodeId> path{kRootNode};  // a parent on the path from the root keeps preorder
    for (int i = 1; i < nodes; ++i) {
      path.resize(1 + rng() % path.size());
      table.parent.push_back(path.back());
      table.method.push_back(static_cast<MethodId>(rng() % letters));
      table.cost.push_back(1);
      path.push_back(static_cast<NodeId>(i));
    }
    std::string expected;
    for (NodeId p = 0; p < table.parent.size() && expected.empty(); ++p) {
      std::set<MethodId> methods;
      for (NodeId c = 1; c < table.parent.size() && expected.empty(); ++c)
        if (table.parent[c] == p && !methods.insert(table.method[c]).second)
          expected =
              "node " + std::to_string(p) + " has two children labelled 'm" + std::to_string(table.method[c]) + "'";
    }
    StringTable names;
    for (int k = 0; k < letters; ++k) names.intern("m" + std::to_string(k));
    if (expected.empty()) {
      CHECK_NOTHROW(CallTree::build(std::move(table), std::move(names), {}));
    } else {
      ++refused;
      CHECK_THROWS_WITH_AS(CallTree::build(std::move(table), std::move(names), {}), doctest::Contains(expected.c_str()),
                           bn::Error);
    }
  }
  CHECK(refused > 100);
  CHECK(refused < 390);  // both outcomes are tried
}

TEST_CASE("build refuses costs whose total overflows 64 bits") {
  StringTable names;
  names.intern("a");
  names.intern("b");
  const Cost big = std::numeric_limits<Cost>::max() - 1;
  NodeTable table{{kNoNode, 0, 0}, {kNoMethod, 0, 1}, {0, big, big}};
  CHECK_THROWS_AS(CallTree::build(std::move(table), std::move(names), {}), bn::Error);
}

// Subtree sizes and cum-costs of a table in preorder (found in one pass over the nodes as they
// close) against the definitions: a node's descendants found by walking every node's parents,
// its cum-cost their exact sum in 128 bits. A tree is refused when some node's cum-cost is past
// 64 bits; with a negative cost among them, when a partial sum in reverse preorder is (the order
// build has always added them in, so which files load does not change).
TEST_CASE("on random trees in preorder subtree sizes and cum-costs are the naive ones") {
  std::mt19937_64 rng(20261124);
  int refused = 0, with_negative = 0;
  for (int round = 0; round < 600; ++round) {
    CAPTURE(round);
    const int nodes = 1 + static_cast<int>(rng() % 90);
    const bool negative = round % 3 == 0, huge = round % 4 == 0;
    NodeTable table{{kNoNode}, {kNoMethod}, {static_cast<Cost>(rng() % 5)}};
    std::vector<NodeId> path{kRootNode};
    std::vector<MethodId> next_method{0};  // siblings differ: each node numbers its children's methods
    for (int i = 1; i < nodes; ++i) {
      path.resize(1 + rng() % path.size());
      const NodeId parent = path.back();
      table.parent.push_back(parent);
      table.method.push_back(next_method[parent]++);
      next_method.push_back(0);
      Cost cost = static_cast<Cost>(rng() % 100);
      if (huge && rng() % 4 == 0) cost = std::numeric_limits<Cost>::max() / 3 + static_cast<Cost>(rng() % 1000);
      if (negative && rng() % 3 == 0) cost = -cost;
      table.cost.push_back(cost);
      path.push_back(static_cast<NodeId>(i));
    }
    const std::size_t n = table.parent.size();
    std::vector<std::uint32_t> size(n, 0);
    std::vector<__int128> sum(n, 0);
    for (std::size_t d = 0; d < n; ++d)
      for (NodeId a = static_cast<NodeId>(d); a != kNoNode; a = table.parent[a]) {
        ++size[a];
        sum[a] += table.cost[d];
      }
    bool overflows = false;
    if (std::none_of(table.cost.begin(), table.cost.end(), [](Cost c) { return c < 0; })) {
      for (const __int128 s : sum) overflows |= s > std::numeric_limits<Cost>::max();
    } else {
      ++with_negative;
      std::vector<Cost> cum = table.cost;
      for (std::size_t i = n - 1; i > 0; --i)
        overflows |= __builtin_add_overflow(cum[table.parent[i]], cum[i], &cum[table.parent[i]]);
    }
    StringTable names;
    for (int k = 0; k < nodes; ++k) names.intern("m" + std::to_string(k));
    if (overflows) {
      ++refused;
      CHECK_THROWS_WITH_AS(CallTree::build(std::move(table), std::move(names), {}),
                           doctest::Contains("costs add up to more than a 64-bit total"), bn::Error);
      continue;
    }
    const CallTree tree = CallTree::build(std::move(table), std::move(names), {});
    for (NodeId v = 0; v < n; ++v) {
      CAPTURE(v);
      CHECK(tree.subtree_size(v) == size[v]);
      CHECK(tree.cum_cost(v) == static_cast<Cost>(sum[v]));
    }
  }
  CHECK(refused > 30);  // both outcomes, with and without negative costs, are tried
  CHECK(refused < 500);
  CHECK(with_negative > 100);
}
