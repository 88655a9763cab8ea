#pragma once
// Test helper: a call tree read back as collapsed stacks, to compare what a reader built with
// what its input said.

#include <map>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"

namespace bn::calltree::testing {

// "a;b;c" (outermost frame first) → that stack's cost.
using StackCounts = std::map<std::string, Cost>;

// Every node with nonzero self cost as its root-to-node stack; equal stacks add up.
inline StackCounts stacks_of(const CallTree& tree) {
  StackCounts out;
  std::vector<std::string> path;
  for (NodeId n = 1; n < tree.node_count(); ++n) {
    path.resize(tree.depth(n) - 1);
    path.emplace_back(tree.node_name(n));
    if (tree.cost(n) == 0) continue;
    std::string key;
    for (const auto& p : path) key += (key.empty() ? "" : ";") + p;
    out[key] += tree.cost(n);
  }
  return out;
}

}  // namespace bn::calltree::testing
