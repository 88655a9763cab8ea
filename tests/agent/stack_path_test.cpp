// Following a thread's stack from its previous one (recorder-agent/src/sample/stack_path.h) gives the
// same node as following every frame from the root: a property test against the naive walk.

#include "sample/stack_path.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

using bn::agent::StackPath;
namespace ct = bn::calltree;

namespace {

jmethodID method(int i) { return reinterpret_cast<jmethodID>(static_cast<std::uintptr_t>(i + 1) * 16); }

// A call tree that grows as frames are followed, counting the steps taken.
struct FakeTree {
  std::map<std::pair<ct::NodeId, jmethodID>, ct::NodeId> children;
  ct::NodeId next = 1;
  int steps = 0;
  ct::NodeId child(ct::NodeId parent, jmethodID m) {
    ++steps;
    auto [it, added] = children.try_emplace({parent, m}, next);
    if (added) ++next;
    return it->second;
  }
};

ct::NodeId naive(FakeTree& tree, ct::NodeId root, const std::vector<jmethodID>& outermost_first) {
  ct::NodeId node = root;
  for (jmethodID m : outermost_first) node = tree.child(node, m);
  return node;
}

ct::NodeId followed(FakeTree& tree, StackPath& path, ct::NodeId root, const std::vector<jmethodID>& stack) {
  return bn::agent::follow_stack(
      path, root, stack.size(), [&](std::size_t i) { return stack[i]; },
      [&](ct::NodeId parent, jmethodID m) { return tree.child(parent, m); });
}

}  // namespace

TEST_CASE("a stack followed from the thread's previous one reaches the node the full walk reaches") {
  std::mt19937 rng(7);
  FakeTree tree;
  StackPath path;
  std::vector<jmethodID> stack;
  for (int sample = 0; sample < 3000; ++sample) {
    // Like a running thread: keep a random number of outer frames, then push new ones; some
    // samples start from another root (a [truncated] stack), some are very deep.
    stack.resize(std::uniform_int_distribution<std::size_t>(0, stack.size())(rng));
    const std::size_t push = sample % 500 == 0 ? 700 : std::uniform_int_distribution<std::size_t>(0, 6)(rng);
    for (std::size_t i = 0; i < push; ++i) stack.push_back(method(std::uniform_int_distribution<int>(0, 4)(rng)));
    const ct::NodeId root = sample % 7 == 0 ? 1000000 : 0;
    const ct::NodeId got = followed(tree, path, root, stack);
    CHECK(got == naive(tree, root, stack));
    CHECK(path.methods.size() == std::min(stack.size(), StackPath::kFramesKept));
    CHECK(path.nodes.size() == path.methods.size());
  }
}

TEST_CASE("an unchanged stack is found without a step in the tree, a changed one from where it differs") {
  FakeTree tree;
  StackPath path;
  const std::vector<jmethodID> stack{method(1), method(2), method(3), method(4)};
  const ct::NodeId first = followed(tree, path, 0, stack);
  CHECK(tree.steps == 4);
  CHECK(followed(tree, path, 0, stack) == first);
  CHECK(tree.steps == 4);
  std::vector<jmethodID> other = stack;
  other[2] = method(9);
  followed(tree, path, 0, other);
  CHECK(tree.steps == 6);          // frames 3 and 4 only
  followed(tree, path, 5, other);  // another root: nothing shared
  CHECK(tree.steps == 10);
}
