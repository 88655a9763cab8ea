#pragma once
// Test helper: a call tree from collapsed stacks ("a;b;c", cost), outermost frame first.

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/calltree/tree_builder.h"

namespace bn::calltree::testing {

using Stacks = std::vector<std::pair<std::string, Cost>>;

// The frames of "a;b;c", interned in `builder`.
inline std::vector<MethodId> frames_of(TreeBuilder& builder, std::string_view stack) {
  std::vector<MethodId> frames;
  while (!stack.empty()) {
    const auto semi = stack.find(';');
    frames.push_back(builder.intern(stack.substr(0, semi)));
    stack = semi == std::string_view::npos ? std::string_view() : stack.substr(semi + 1);
  }
  return frames;
}

inline CallTree tree_from_stacks(const Stacks& stacks) {
  TreeBuilder builder;
  for (const auto& [stack, cost] : stacks) builder.add_stack(frames_of(builder, stack), cost);
  Metadata metadata;
  metadata.metric = "samples";
  metadata.unit = "samples";
  return std::move(builder).build(std::move(metadata));
}

// The same tree with the methods named in `refining` marked as refining the time of the frame
// above them (CallTree::with_refining_methods), as a view marks its typed-time names.
inline CallTree tree_from_stacks(const Stacks& stacks, const std::set<std::string>& refining) {
  CallTree tree = tree_from_stacks(stacks);
  std::vector<bool> marks(tree.method_count(), false);
  for (const std::string& name : refining)
    if (const auto m = tree.find_method(name)) marks[*m] = true;
  return std::move(tree).with_refining_methods(std::move(marks));
}

// Paper figure 2 (seed 004).
inline CallTree figure2() {
  return tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;c", 10}, {"a;b;c;d", 50}, {"a;c", 5}, {"a;c;e", 32}});
}

}  // namespace bn::calltree::testing
