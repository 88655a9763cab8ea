// The recorder's merged tree (recorder-agent/src/frame_tree.cpp): FrameTree::child finds a
// node's children by walking them, and through a table once a node has more than a few. Random
// calls are checked against a plain map of (parent, method) to child.

#include "frame_tree.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
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
    const FrameTree::Pending pending = tree.take_pending();
    REQUIRE(pending.parents.size() + 1 == parents.size());
    for (std::size_t i = 0; i < pending.parents.size(); ++i) {
      CHECK(pending.parents[i] == parents[i + 1]);
      CHECK(pending.methods[i] == methods[i + 1]);
    }
  }
}
