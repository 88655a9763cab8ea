// The closing walk (internal to the model, closing_walk.h) split in two at every node against the
// walk on one thread and against the definitions: subtree sizes by counting each node's ancestors,
// cum-costs as exact 128-bit sums, the sibling check by comparing every pair of children, preorder
// by the path from the root. Random tables, in preorder and not, with repeated siblings (among a
// few children and among more than the walk checks as they come), negative costs and costs whose
// sums pass 64 bits.

#include "closing_walk.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "bn/calltree/call_tree.h"

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
  // Wide tables: nodes with more children than the walk checks as they come (kFilteredChildren),
  // labelled from enough methods that a repeat among them is not certain.
  const bool wide = round % 6 == 5;
  const int nodes = 1 + static_cast<int>(rng() % (wide ? 160 : 70));
  t.methods = wide ? 20 + rng() % 300 : 1 + rng() % 12;
  const bool preorder = round % 4 != 0, negative = round % 3 == 0, huge = round % 5 == 0;
  t.cost.push_back(static_cast<Cost>(rng() % 5));
  std::vector<NodeId> path{kRootNode};  // a parent on the path from the root keeps preorder
  for (int i = 1; i < nodes; ++i) {
    path.resize(1 + rng() % (wide ? std::min<std::size_t>(path.size(), 2) : path.size()));
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
  int not_preorder = 0, repeated = 0, overflowing = 0, negative = 0, wide_repeated = 0, wide_distinct = 0;
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
    std::vector<int> children(n, 0);
    for (std::size_t i = 1; i < n; ++i) ++children[t.parent[i]];
    const bool has_wide = *std::max_element(children.begin(), children.end()) > 16;
    not_preorder += !preorder;
    repeated += preorder && repeats;
    overflowing += preorder && overflows && !has_negative;
    negative += preorder && has_negative;
    wide_repeated += preorder && has_wide && repeats;
    wide_distinct += preorder && has_wide && !repeats;

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
  CHECK(wide_repeated > 50);
  CHECK(wide_distinct > 10);
}

TEST_CASE("a repeat is found at any child of a node of any width, the walk split anywhere") {
  // A root with `width` children, each with a child of its own but every third; child `second`
  // labelled as child `first`, all other labels distinct. Every width across the number of
  // children checked as they come, every pair.
  std::mt19937_64 rng(7);
  for (std::size_t width = 2; width <= 40; ++width) {
    for (std::size_t first = 0; first < width; ++first) {
      for (std::size_t second = first + 1; second < width; ++second) {
        CAPTURE(width);
        CAPTURE(first);
        CAPTURE(second);
        Table t;
        t.cost.push_back(0);
        std::vector<MethodId> label(width);
        for (std::size_t k = 0; k < width; ++k) label[k] = static_cast<MethodId>(k == second ? first : k);
        for (std::size_t k = 0; k < width; ++k) {
          const auto child = static_cast<NodeId>(t.parent.size());
          t.parent.push_back(kRootNode);
          t.method.push_back(label[k]);
          t.cost.push_back(1);
          if (k % 3 != 0) {
            t.parent.push_back(child);
            t.method.push_back(static_cast<MethodId>(width + k));
            t.cost.push_back(1);
          }
        }
        t.methods = 2 * width + 1;
        const std::size_t split = rng() % t.parent.size();
        const Walked w = walk(t, split);
        CHECK(w.walk.preorder);
        CHECK(w.walk.repeated_sibling);
        // On one thread every node is checked by the walk, none after the halves meet.
        CHECK(walk(t, 0).walk.repeated_sibling);
        // The same one level down: under a child of the root.
        Table deeper;
        deeper.cost.push_back(0);
        deeper.parent.push_back(kRootNode);
        deeper.method.push_back(static_cast<MethodId>(t.methods));
        deeper.cost.push_back(0);
        for (std::size_t i = 1; i < t.parent.size(); ++i) {
          deeper.parent.push_back(t.parent[i] + 1);
          deeper.method.push_back(t.method[i]);
          deeper.cost.push_back(t.cost[i]);
        }
        deeper.methods = t.methods + 1;
        CHECK(walk(deeper, rng() % deeper.parent.size()).walk.repeated_sibling);
        CHECK(walk(deeper, 0).walk.repeated_sibling);
      }
    }
  }
}

TEST_CASE("a walk begun early reads each cost once it is said final, and an abandoned one keeps nothing") {
  // The costs are made final in random steps by this thread, which sleeps between steps (pacing
  // only: the early walk's thread, left to run ahead, would read the cost not yet written, a
  // poison value, and find other sums). Against the walk of the final costs on one thread.
  std::mt19937_64 rng(18);
  int finished = 0, abandoned = 0;
  for (int round = 0; round < 24; ++round) {
    CAPTURE(round);
    Table final_costs;
    const std::size_t n = kTwoThreadWalk + rng() % 20000;
    final_costs.methods = round % 3 == 0 ? 500 : n;  // repeated siblings, or none
    std::vector<NodeId> path{kRootNode};
    final_costs.cost.push_back(static_cast<Cost>(rng() % 5));
    for (std::size_t i = 1; i < n; ++i) {
      path.resize(path.size() - std::min<std::size_t>(path.size() - 1, rng() % 10 / 4));
      final_costs.parent.push_back(round % 8 == 7 ? static_cast<NodeId>(rng() % i) : path.back());
      final_costs.method.push_back(static_cast<MethodId>(round % 3 == 0 ? rng() % 500 : i));
      final_costs.cost.push_back(static_cast<Cost>(rng() % 100) - (round % 5 == 0 ? 10 : 0));
      path.push_back(static_cast<NodeId>(i));
    }
    constexpr Cost kPoison = 1'000'003;
    NodeTable table{final_costs.parent, final_costs.method, std::vector<Cost>(n, kPoison), true};
    std::unique_ptr<EarlyWalk> early = EarlyWalk::begin(table, final_costs.methods);
    REQUIRE(early != nullptr);
    const bool abandon = round % 4 == 3;
    const std::size_t abandon_at = rng() % n;
    std::size_t final_below = 0;
    while (final_below < n) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const std::size_t next = std::min(n, final_below + 1 + rng() % (n / 8));
      if (abandon && final_below <= abandon_at && abandon_at < next) early->abandon();
      std::copy(final_costs.cost.begin() + static_cast<std::ptrdiff_t>(final_below),
                final_costs.cost.begin() + static_cast<std::ptrdiff_t>(next),
                table.cost.begin() + static_cast<std::ptrdiff_t>(final_below));
      final_below = next;
      early->costs_final_below(final_below);
    }
    const std::optional<WalkedTable> walked = early->finish();
    REQUIRE(walked.has_value() == !abandon);
    if (!walked) {
      ++abandoned;
      continue;
    }
    ++finished;
    const Walked one = walk(final_costs, 0);
    CHECK(walked->walk.preorder == one.walk.preorder);
    if (!one.walk.preorder) continue;
    CHECK(walked->walk.repeated_sibling == one.walk.repeated_sibling);
    CHECK(walked->walk.negative == one.walk.negative);
    CHECK(walked->walk.cum_overflow == one.walk.cum_overflow);
    CHECK(std::equal(walked->size.begin(), walked->size.end(), one.size.begin(), one.size.end()));
    CHECK(std::equal(walked->cum.begin(), walked->cum.end(), one.cum.begin(), one.cum.end()));
  }
  CHECK(finished >= 15);
  CHECK(abandoned >= 5);
}
