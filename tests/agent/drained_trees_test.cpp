// DrainedTrees (recorder-agent/src/drained_trees.cpp): what each per-thread tree gained since the
// last flush is added to the merged FrameTree once, an ended thread's region is released, and a
// tree with a bad node stops only its own merge.

#include "drained_trees.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "frame_tree.h"
#include "tree_memory.h"

using bn::agent::DrainedTrees;
using bn::agent::FrameTree;
using bn::agent::TreeMemory;
using bn::agent::TreeView;

namespace {

// A tree laid out as bottlenecks.runtime.Nodes does: eight longs a node, SELF, CALLS, LINK first;
// LINK is (method << 32) | parent. Nodes 0 and 1 are the root and the overflow node.
class FakeTree {
 public:
  FakeTree(TreeMemory& memory, std::int64_t serial) : serial_(serial), base_(memory.create()) { REQUIRE(base_ != 0); }

  // A new node under `parent` for method `method`; returns its id.
  std::int64_t add(std::uint32_t parent, std::uint32_t method) {
    const std::int64_t node = count_++;
    word(node, kLink) = static_cast<std::int64_t>((static_cast<std::uint64_t>(method) << 32) | parent);
    return node;
  }
  void count(std::int64_t node, std::int64_t calls, std::int64_t nanos) {
    word(node, kCalls) = calls;
    word(node, kSelf) = nanos;
  }
  TreeView view(bool dead = false) const { return TreeView{serial_, base_, count_, dead}; }

 private:
  static constexpr int kSelf = 0, kCalls = 1, kLink = 2;
  std::int64_t& word(std::int64_t node, int w) { return reinterpret_cast<std::int64_t*>(base_)[node * 8 + w]; }
  std::int64_t serial_;
  std::uintptr_t base_;
  std::int64_t count_ = 2;
};

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
