// DrainedTrees (recorder-agent/src/calltree/drained_trees.cpp): what each per-thread tree gained since the
// last flush is added to the merged FrameTree once, an ended thread's region is released, a
// tree with a bad node stops only its own merge, and a recording started after another
// (DrainedTrees::start) reports only what the trees gained since its start, checked against a
// naive recomputation on random trees.

#include "calltree/drained_trees.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "calltree/tree_memory.h"
#include "core/frame_tree.h"

using bn::agent::DrainedTrees;
using bn::agent::FrameTree;
using bn::agent::TreeMemory;
using bn::agent::TreeView;

namespace {

// A tree laid out as bottlenecks.runtime.Nodes does: eight longs a node, SELF, CALLS, LINK first;
// LINK is (method << 32) | parent. Nodes 0 and 1 are the root and the overflow node.
class FakeTree {
 public:
  FakeTree(TreeMemory& memory, std::int64_t serial)
      : memory_(memory), serial_(serial), base_(memory.create()), committed_(TreeMemory::kFirstCommit) {
    REQUIRE(base_ != 0);
  }

  // A new node under `parent` for method `method`; returns its id.
  std::int64_t add(std::uint32_t parent, std::uint32_t method) {
    if (static_cast<std::uint64_t>(count_ + 1) * 64 > committed_) committed_ = memory_.grow(base_);
    REQUIRE(static_cast<std::uint64_t>(count_ + 1) * 64 <= committed_);
    const std::int64_t node = count_++;
    word(node, kLink) = static_cast<std::int64_t>((static_cast<std::uint64_t>(method) << 32) | parent);
    return node;
  }
  void count(std::int64_t node, std::int64_t calls, std::int64_t nanos) {
    word(node, kCalls) = calls;
    word(node, kSelf) = nanos;
  }
  TreeView view(bool dead = false) const { return TreeView{serial_, base_, count_, dead}; }
  std::int64_t nodes() const { return count_; }
  std::int64_t calls(std::int64_t node) const { return word(node, kCalls); }
  std::int64_t nanos(std::int64_t node) const { return word(node, kSelf); }
  std::uint32_t parent(std::int64_t node) const { return static_cast<std::uint32_t>(word(node, kLink)); }
  std::uint32_t method(std::int64_t node) const {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(word(node, kLink)) >> 32);
  }

 private:
  static constexpr int kSelf = 0, kCalls = 1, kLink = 2;
  std::int64_t& word(std::int64_t node, int w) { return reinterpret_cast<std::int64_t*>(base_)[node * 8 + w]; }
  std::int64_t word(std::int64_t node, int w) const {
    return reinterpret_cast<const std::int64_t*>(base_)[node * 8 + w];
  }
  TreeMemory& memory_;
  std::int64_t serial_;
  std::uintptr_t base_;
  std::uint64_t committed_;
  std::int64_t count_ = 2;
};

struct PathCost {
  std::int64_t calls = 0;
  std::int64_t nanos = 0;
  bool operator==(const PathCost&) const = default;
};
using Paths = std::map<std::string, PathCost>;  // "m1;m2;..." from the root -> costs

// Everything a FrameTree holds: each node by its path of names, and its names in interning order.
struct Contents {
  Paths paths;
  std::vector<std::string> strings;
};

// `tree`'s contents (its only take_pending).
Contents contents_of(FrameTree& tree) {
  FrameTree::Pending p;
  tree.take_pending(p);
  std::vector<std::string> path(p.parents.size() + 1);  // index = node id, 0 the root
  Contents out{{}, p.strings};
  for (std::size_t i = 0; i < p.parents.size(); ++i) {
    const std::string& parent = path[p.parents[i]];
    path[i + 1] = (parent.empty() ? "" : parent + ";") + p.strings[p.methods[i]];
    out.paths[path[i + 1]];
  }
  for (const auto& [node, nanos] : p.costs) out.paths[path[node]].nanos += nanos;
  for (const auto& [node, calls] : p.more_costs[0]) out.paths[path[node]].calls += calls;
  return out;
}

}  // namespace

TEST_CASE("each flush adds what a tree's counts gained since the one before, once") {
  TreeMemory memory(1 << 20);
  FrameTree tree(2);
  DrainedTrees drained;
  FakeTree t(memory, 1);
  const auto a = t.add(0, 0);
  t.count(a, 3, 100);
  const std::vector<TreeView> first{t.view()};
  REQUIRE(drained.merge(first, {"p.A.a", "p.B.b"}, tree, memory).ok());
  CHECK(drained.calls() == 3);
  const auto b = t.add(static_cast<std::uint32_t>(a), 1);
  t.count(a, 5, 150);
  t.count(b, 2, 10);
  const std::vector<TreeView> second{t.view()};
  REQUIRE(drained.merge(second, {}, tree, memory).ok());
  CHECK(drained.calls() == 7);
  CHECK(drained.threads_seen() == 1);
  CHECK(drained.threads_ended() == 0);
}

TEST_CASE("a tree with a bad node stops only its own merge, the others merge and ended regions are released") {
  TreeMemory memory(1 << 20);
  FrameTree tree(2);
  DrainedTrees drained;
  FakeTree bad(memory, 1), good(memory, 2);
  bad.add(3, 0);  // a parent after its child: never written by the runtime
  const auto g = good.add(0, 1);
  good.count(g, 5, 40);
  const std::uint64_t before = memory.committed();
  const std::vector<TreeView> views{bad.view(true), good.view(true)};
  const auto s = drained.merge(views, {"p.A.a", "p.B.b"}, tree, memory);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() == "call trees: node 2 of thread 1 names an unknown parent or method");
  CHECK(drained.calls() == 5);  // the good tree, after the bad one, still reported
  CHECK(drained.threads_ended() == 2);
  CHECK(memory.committed() == before - 2 * TreeMemory::kFirstCommit);  // both regions released
}

TEST_CASE("a method id not yet named is refused with the tree's serial") {
  TreeMemory memory(1 << 20);
  FrameTree tree(2);
  DrainedTrees drained;
  FakeTree t(memory, 7);
  t.add(0, 2);  // only methods 0 and 1 are named
  const std::vector<TreeView> views{t.view()};
  const auto s = drained.merge(views, {"p.A.a", "p.B.b"}, tree, memory);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() == "call trees: node 2 of thread 7 names an unknown parent or method");
  memory.release(views[0].base);
}

TEST_CASE("a recording started after another reports only what the trees gained since its start") {
  TreeMemory memory(1 << 20);
  FakeTree t(memory, 1);
  const auto a = t.add(0, 0);
  const auto b = t.add(static_cast<std::uint32_t>(a), 1);
  const auto c = t.add(0, 2);
  t.count(a, 3, 100);
  t.count(b, 2, 10);
  t.count(c, 1, 5);
  FrameTree tree(2);
  DrainedTrees drained;
  const std::vector<TreeView> at_start{t.view()};
  drained.start(at_start, {"p.A.a", "p.B.b", "p.C.c"}, memory);
  // b gains 3 calls (a frame of the earlier recording's code still running calls it) and a new
  // child; a and c gain nothing.
  t.count(b, 5, 40);
  const auto d = t.add(static_cast<std::uint32_t>(b), 3);
  t.count(d, 1, 7);
  const std::vector<TreeView> views{t.view()};
  REQUIRE(drained.merge(views, {"p.D.d"}, tree, memory).ok());
  CHECK(drained.calls() == 4);
  CHECK(drained.threads_seen() == 1);
  // b's ancestor a is in the tree, with nothing of its own; c, and its name, are not.
  const Contents got = contents_of(tree);
  CHECK(got.paths == Paths{{"p.A.a", {0, 0}}, {"p.A.a;p.B.b", {3, 30}}, {"p.A.a;p.B.b;p.D.d", {1, 7}}});
  CHECK(got.strings == std::vector<std::string>{"p.D.d", "p.A.a", "p.B.b"});
  memory.release(views[0].base);
}

TEST_CASE("a recording's start releases the trees of threads that ended before it, and reports nothing of them") {
  TreeMemory memory(1 << 20);
  FakeTree ended(memory, 1);
  ended.count(ended.add(0, 0), 4, 40);
  const std::uint64_t before = memory.committed();
  FrameTree tree(2);
  DrainedTrees drained;
  const std::vector<TreeView> at_start{ended.view(true)};
  drained.start(at_start, {"p.A.a"}, memory);
  CHECK(memory.committed() == before - TreeMemory::kFirstCommit);
  REQUIRE(drained.merge({}, {}, tree, memory).ok());
  CHECK(drained.calls() == 0);
  CHECK(drained.threads_seen() == 0);
  CHECK(contents_of(tree).paths.empty());
}

namespace {

// A tree's nodes as they were at its last view: an ended thread's region is unmapped by the merge.
struct Frozen {
  std::int64_t serial = 0;
  std::vector<std::uint32_t> parents, methods;  // index = node
  std::vector<std::int64_t> calls, nanos;
};

Frozen freeze(const FakeTree& t) {
  Frozen f;
  f.serial = t.view().serial;
  for (std::int64_t node = 0; node < t.nodes(); ++node) {
    f.parents.push_back(t.parent(node));
    f.methods.push_back(t.method(node));
    f.calls.push_back(t.calls(node));
    f.nanos.push_back(t.nanos(node));
  }
  return f;
}

// What a recording started when the trees were `at_start` must report, computed the slow way: per
// thread, every node's counts at its last view minus its counts at the start (none for a node or
// thread made after it), summed per path of names; a path is in the tree if a node on it gained
// something, or if its node was made after the start (the flusher maps new nodes as it meets
// them), and so are its ancestors.
Paths naive_since(const std::vector<Frozen>& last, const std::map<std::int64_t, Frozen>& at_start,
                  const std::vector<std::string>& names) {
  Paths out;
  for (const Frozen& t : last) {
    const auto it = at_start.find(t.serial);
    const std::size_t old = it == at_start.end() ? 0 : it->second.calls.size();
    std::vector<std::string> path(t.calls.size());
    for (std::size_t node = 1; node < t.calls.size(); ++node) {
      path[node] = node == 1 ? std::string(DrainedTrees::kTreeFull)
                             : (t.parents[node] == 0 ? "" : path[t.parents[node]] + ";") + names[t.methods[node]];
      const std::int64_t calls = t.calls[node] - (node < old ? it->second.calls[node] : 0);
      const std::int64_t nanos = t.nanos[node] - (node < old ? it->second.nanos[node] : 0);
      if (calls == 0 && nanos == 0 && (node < old || node == 1)) continue;
      for (std::string p = path[node];; p = p.substr(0, p.rfind(';'))) {  // the path and its ancestors
        out[p];
        if (p.find(';') == std::string::npos) break;
      }
      out[path[node]].calls += calls;
      out[path[node]].nanos += nanos;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("after a random earlier recording, a later one reports exactly what the trees gained since its start") {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const auto below = [&](std::int64_t n) { return std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng); };
    TreeMemory memory(1 << 24);
    std::vector<std::string> names;
    std::size_t named = 0;  // names handed to a merge or start so far
    std::vector<std::unique_ptr<FakeTree>> trees;
    std::int64_t serials = 0;
    // Grows the trees: new threads, new nodes under any node but the overflow one, more counts.
    const auto grow = [&](int steps) {
      for (int i = 0; i < steps; ++i) {
        if (trees.empty() || below(10) == 0) trees.push_back(std::make_unique<FakeTree>(memory, ++serials));
        FakeTree& t = *trees[static_cast<std::size_t>(below(static_cast<std::int64_t>(trees.size())))];
        if (below(3) == 0) {
          if (below(4) == 0) names.push_back("p.C" + std::to_string(names.size()) + ".m");
          if (names.empty()) continue;
          std::int64_t parent = below(t.nodes());
          if (parent == 1) parent = 0;
          t.add(static_cast<std::uint32_t>(parent),
                static_cast<std::uint32_t>(below(static_cast<std::int64_t>(names.size()))));
        } else {
          const std::int64_t node = 1 + below(t.nodes() - 1);
          t.count(node, t.calls(node) + below(3), t.nanos(node) + below(50));
        }
      }
    };
    const auto views = [&](std::vector<TreeView>& out, bool end_some) {
      out.clear();
      for (auto it = trees.begin(); it != trees.end();) {
        const bool dead = end_some && below(8) == 0;
        out.push_back((*it)->view(dead));
        it = dead ? trees.erase(it) : it + 1;  // its region is released by the merge (or start)
      }
    };
    const auto new_names = [&] {
      std::vector<std::string> out(names.begin() + static_cast<std::ptrdiff_t>(named), names.end());
      named = names.size();
      return out;
    };
    // The earlier recording, drained a few times.
    FrameTree earlier_tree(2);
    DrainedTrees earlier;
    std::vector<TreeView> list;
    for (int flush = 0; flush < 3; ++flush) {
      grow(60);
      views(list, true);
      REQUIRE(earlier.merge(list, new_names(), earlier_tree, memory).ok());
    }
    // Between the two, and the start: a baseline of every tree.
    grow(40);
    views(list, true);
    new_names();
    std::map<std::int64_t, Frozen> at_start;
    for (const auto& t : trees) at_start.emplace(t->view().serial, freeze(*t));
    FrameTree tree(2);
    DrainedTrees drained;
    drained.start(list, names, memory);
    // The later recording: its threads end too, each checked as of its last view.
    std::vector<Frozen> last;
    for (int flush = 0; flush < 4; ++flush) {
      grow(80);
      list.clear();
      for (auto it = trees.begin(); it != trees.end();) {
        const bool dead = flush == 3 ? below(2) == 0 : below(10) == 0;
        list.push_back((*it)->view(dead));
        if (dead) last.push_back(freeze(**it));
        it = dead ? trees.erase(it) : it + 1;
      }
      REQUIRE(drained.merge(list, new_names(), tree, memory).ok());
    }
    for (const auto& t : trees) last.push_back(freeze(*t));
    const Paths expected = naive_since(last, at_start, names);
    CHECK(contents_of(tree).paths == expected);
    std::uint64_t calls = 0;
    for (const auto& [path, cost] : expected) calls += static_cast<std::uint64_t>(cost.calls);
    CHECK(drained.calls() == calls);
  }
}
