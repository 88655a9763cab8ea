#pragma once
// A thread's last stack as a path in the recorder's call tree, so that its next stack follows
// the tree only below the frames in which the two differ. A running thread's outer frames
// rarely change between samples, and following a frame costs two hash lookups (its name, then
// the child node), which perf put at a tenth of the sampler's CPU with stacks of 20 frames.
// Sound because a jmethodID always names the same method (frame_tree.h): the same outer frames
// from the same starting node lead to the same node.

#include <jvmti.h>

#include <cstddef>
#include <vector>

#include "bn/calltree/types.h"

namespace bn::agent {

struct StackPath {
  // Outer frames remembered: bounds the memory of thousands of threads with deep stacks;
  // deeper frames are followed in the tree every time.
  static constexpr std::size_t kFramesKept = 512;

  calltree::NodeId root = calltree::kNoNode;  // where the stack starts (the root or [truncated])
  std::vector<jmethodID> methods;             // outermost first
  std::vector<calltree::NodeId> nodes;        // nodes[i]: the node reached through methods[0..i]
};

// The node of the stack of `count` frames that starts at `root`; `method_at(i)` is the i-th
// frame from the outermost, `child_of(node, method)` follows one frame in the tree. `path`
// holds the thread's previous stack and is replaced by this one.
template <class MethodAt, class ChildOf>
calltree::NodeId follow_stack(StackPath& path, calltree::NodeId root, std::size_t count, MethodAt method_at,
                              ChildOf child_of) {
  if (path.root != root) {
    path.root = root;
    path.methods.clear();
    path.nodes.clear();
  }
  std::size_t same = 0;
  while (same < path.methods.size() && same < count && path.methods[same] == method_at(same)) ++same;
  path.methods.resize(same);
  path.nodes.resize(same);
  calltree::NodeId node = same > 0 ? path.nodes.back() : root;
  for (std::size_t i = same; i < count; ++i) {
    const jmethodID method = method_at(i);
    node = child_of(node, method);
    if (path.methods.size() < StackPath::kFramesKept) {
      path.methods.push_back(method);
      path.nodes.push_back(node);
    }
  }
  return node;
}

}  // namespace bn::agent
