// The recorder's merged tree (recorder-agent/src/core/frame_tree.cpp): FrameTree::child finds a
// node's children by walking them, and through a table once a node has more than a few. Random
// calls are checked against a plain map of (parent, method) to child.

#include "core/frame_tree.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ct = bn::calltree;
using bn::agent::FrameTree;

TEST_CASE("FrameTree::child finds each (parent, method) once, whatever the parent's number of children") {
  for (const unsigned seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
    INFO("seed " << seed);
    std::mt19937 random(seed);
    FrameTree tree;
    std::map<std::pair<ct::NodeId, ct::MethodId>, ct::NodeId> naive;
    std::vector<ct::NodeId> parents{0}, methods{ct::kNoMethod};  // index = node
    // Few methods or many, so that some parents pass the walk's limit (8 children) and some never.
    const ct::MethodId method_range = seed % 2 == 0 ? 4 : 40;
    for (int step = 0; step < 20000; ++step) {
      // Mostly the newest nodes, as a drain brings them; sometimes any node; sometimes one of the
      // first few, which thereby gain many children (dispatchers).
      const ct::NodeId count = static_cast<ct::NodeId>(parents.size());
      const unsigned kind = random() % 4;
      const ct::NodeId parent = kind == 0 ? static_cast<ct::NodeId>(random() % std::min<ct::NodeId>(count, 16))
                                : kind == 1
                                    ? static_cast<ct::NodeId>(random() % count)
                                    : count - 1 - static_cast<ct::NodeId>(random() % std::min<ct::NodeId>(count, 8));
      const auto method = static_cast<ct::MethodId>(random() % method_range);
      const auto [it, inserted] = naive.try_emplace({parent, method}, count);
      const ct::NodeId got = tree.child(parent, method);
      REQUIRE(got == it->second);
      if (inserted) {
        parents.push_back(parent);
        methods.push_back(method);
      }
    }
    // The new nodes come out in id order with their parents and methods.
    FrameTree::Pending pending;
    tree.take_pending(pending);
    REQUIRE(pending.parents.size() + 1 == parents.size());
    for (std::size_t i = 0; i < pending.parents.size(); ++i) {
      CHECK(pending.parents[i] == parents[i + 1]);
      CHECK(pending.methods[i] == methods[i + 1]);
    }
  }
}

// One Pending reused across flushes (the sink keeps it, so that its memory is not fresh pages at
// every flush) holds exactly each flush's new nodes and increments, nothing left from the last,
// whether the tree keeps its totals or not; a tree that keeps them builds them, summed naively.
TEST_CASE("take_pending into a reused Pending gives each flush's new nodes and cost increments only") {
  for (const FrameTree::Totals totals : {FrameTree::Totals::kKept, FrameTree::Totals::kDropped}) {
    CAPTURE(static_cast<int>(totals));
    std::mt19937 random(7);
    FrameTree tree(2, totals);
    for (int m = 0; m < 1000; ++m) tree.intern("m" + std::to_string(m));  // the methods' names, for build()
    std::vector<ct::NodeId> nodes{ct::kRootNode};
    std::map<std::pair<std::size_t, ct::NodeId>, ct::Cost> flushed;  // (metric, node) -> cost so far
    std::map<std::pair<std::size_t, ct::NodeId>, ct::Cost> now;
    FrameTree::Pending pending;
    for (int flush = 0; flush < 30; ++flush) {
      INFO("flush " << flush);
      const std::size_t before = nodes.size();
      const int new_nodes = static_cast<int>(random() % 50);  // some flushes bring none
      for (int k = 0; k < new_nodes; ++k) {
        const ct::NodeId parent = nodes[random() % nodes.size()];
        const ct::NodeId child = tree.child(parent, static_cast<ct::MethodId>(random() % 1000));
        if (child == nodes.size()) nodes.push_back(child);
      }
      const int costs = flush % 5 == 4 ? 0 : static_cast<int>(random() % 200);  // some flushes add none
      for (int k = 0; k < costs && nodes.size() > 1; ++k) {
        const ct::NodeId node = nodes[1 + random() % (nodes.size() - 1)];
        const std::size_t metric = random() % 2;
        const auto amount = static_cast<ct::Cost>(random() % 3);  // zero increments too
        tree.add_cost(node, metric, amount);
        now[{metric, node}] += amount;
      }
      tree.take_pending(pending);
      CHECK(pending.parents.size() == nodes.size() - before);
      CHECK(pending.methods.size() == nodes.size() - before);
      REQUIRE(pending.more_costs.size() == 1);
      for (std::size_t metric = 0; metric < 2; ++metric) {
        std::vector<std::pair<ct::NodeId, ct::Cost>> expected;
        for (const auto& [key, cost] : now)
          if (key.first == metric && cost != flushed[key]) expected.emplace_back(key.second, cost - flushed[key]);
        const FrameTree::Increments& got = metric == 0 ? pending.costs : pending.more_costs[0];
        CHECK(std::vector<std::pair<ct::NodeId, ct::Cost>>(got.begin(), got.end()) == expected);
      }
      flushed = now;
      // Costs added after the take count in the totals too.
      const ct::NodeId late = nodes[random() % nodes.size()];
      tree.add_cost(late, 0, 3);
      now[{0, late}] += 3;
      if (totals == FrameTree::Totals::kDropped) {
        CHECK_THROWS_AS(tree.build(ct::Metadata()), std::logic_error);
        continue;
      }
      const ct::CallTree built = tree.build(ct::Metadata());
      REQUIRE(built.node_count() == nodes.size());
      std::vector<ct::Cost> expected_totals(nodes.size(), 0);  // by node id of `tree`
      for (const auto& [key, cost] : now)
        if (key.first == 0) expected_totals[key.second] = cost;
      // build() renumbers the nodes in preorder: the same costs, in some order.
      std::vector<ct::Cost> got_totals;
      for (ct::NodeId n = 0; n < built.node_count(); ++n) got_totals.push_back(built.cost(n));
      std::sort(got_totals.begin(), got_totals.end());
      std::sort(expected_totals.begin(), expected_totals.end());
      CHECK(got_totals == expected_totals);
    }
  }
}
