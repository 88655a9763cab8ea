// The closing walk (internal to the model, closing_walk.h) split in two at every node against the
// walk on one thread and against the definitions: subtree sizes by counting each node's ancestors,
// cum-costs as exact 128-bit sums, the sibling check by comparing every pair of children, preorder
// by the path from the root. Random tables, in preorder and not, with repeated siblings, negative
// costs and costs whose sums pass 64 bits.

#include "closing_walk.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace bn::calltree;

namespace {

struct Table {
  std::vector<NodeId> parent{kNoNode};
  std::vector<MethodId> method{kNoMethod};
  std::vector<Cost> cost;
  std::size_t methods = 0;
};

Table random_table(std::mt19937_64& rng, int round) {
  Table t;
  const int nodes = 1 + static_cast<int>(rng() % 70);
  t.methods = 1 + rng() % 12;
  const bool preorder = round % 4 != 0, negative = round % 3 == 0, huge = round % 5 == 0;
  t.cost.push_back(static_cast<Cost>(rng() % 5));
  std::vector<NodeId> path{kRootNode};  // a parent on the path from the root keeps preorder
  for (int i = 1; i < nodes; ++i) {
    path.resize(1 + rng() % path.size());
    t.parent.push_back(preorder ? path.back() : static_cast<NodeId>(rng() % i));
    t.method.push_back(static_cast<MethodId>(rng() % t.methods));
    Cost cost = static_cast<Cost>(rng() % 100);
    if (huge && rng() % 4 == 0) cost = std::numeric_limits<Cost>::max() / 3 + static_cast<Cost>(rng() % 1000);
    if (negative && rng() % 3 == 0) cost = -cost;
    t.cost.push_back(cost);
    path.push_back(static_cast<NodeId>(i));
  }
  return t;
}

struct Walked {
  ClosingWalk walk;
  std::vector<std::uint32_t> size;
  std::vector<Cost> cum;
};

Walked walk(const Table& t, std::size_t split) {
  Walked w{{}, std::vector<std::uint32_t>(t.parent.size()), std::vector<Cost>(t.parent.size())};
  w.walk = close_in_preorder(t.parent, t.method, t.cost, t.methods, w.size, w.cum, split);
  return w;
}

}  // namespace

TEST_CASE("the closing walk split at any node finds what one thread and the definitions find") {
  std::mt19937_64 rng(20261124);
  int not_preorder = 0, repeated = 0, overflowing = 0, negative = 0;
  for (int round = 0; round < 1500; ++round) {
    CAPTURE(round);
    const Table t = random_table(rng, round);
    const std::size_t n = t.parent.size();
    // The definitions.
    bool preorder = true, repeats = false, has_negative = false;
    std::vector<NodeId> path{kRootNode};
    for (std::size_t i = 1; i < n; ++i) {
      while (!path.empty() && path.back() != t.parent[i]) path.pop_back();
      preorder &= !path.empty();
      path.push_back(static_cast<NodeId>(i));
    }
    std::vector<std::uint32_t> size(n, 0);
    std::vector<__int128> sum(n, 0);
    for (std::size_t d = 0; d < n; ++d) {
      has_negative |= t.cost[d] < 0;
      for (NodeId a = static_cast<NodeId>(d); a != kNoNode; a = t.parent[a]) {
        ++size[a];
        sum[a] += t.cost[d];
      }
    }
    bool overflows = false;
    for (const __int128 s : sum) overflows |= s > std::numeric_limits<Cost>::max();
    for (std::size_t a = 1; a < n; ++a)
      for (std::size_t b = a + 1; b < n; ++b) repeats |= t.parent[a] == t.parent[b] && t.method[a] == t.method[b];
    not_preorder += !preorder;
    repeated += preorder && repeats;
    overflowing += preorder && overflows && !has_negative;
    negative += preorder && has_negative;

    const Walked one = walk(t, 0);
    REQUIRE(one.walk.preorder == preorder);
    for (std::size_t split = 0; split < n; ++split) {
      CAPTURE(split);
      const Walked w = split == 0 ? one : walk(t, split);
      REQUIRE(w.walk.preorder == preorder);
      if (!preorder) continue;
      CHECK(w.walk.repeated_sibling == repeats);
      CHECK(w.walk.negative == has_negative);
      if (!has_negative) CHECK(w.walk.cum_overflow == overflows);
      CHECK(w.size == size);
      if (w.walk.cum_overflow) continue;
      for (std::size_t v = 0; v < n; ++v) CHECK(w.cum[v] == static_cast<Cost>(sum[v]));
    }
  }
  // Every outcome is tried.
  CHECK(not_preorder > 200);
  CHECK(repeated > 200);
  CHECK(overflowing > 20);
  CHECK(negative > 200);
}
