#pragma once
// Test helper: a call tree from collapsed stacks ("a;b;c", cost), outermost frame first.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/calltree/tree_builder.h"

namespace bn::calltree::testing {

using Stacks = std::vector<std::pair<std::string, Cost>>;

inline CallTree tree_from_stacks(const Stacks& stacks) {
  TreeBuilder builder;
  for (const auto& [stack, cost] : stacks) {
    std::vector<MethodId> frames;
    std::string_view rest = stack;
    while (!rest.empty()) {
      const auto semi = rest.find(';');
      frames.push_back(builder.intern(rest.substr(0, semi)));
      rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
    }
    builder.add_stack(frames, cost);
  }
  Metadata metadata;
  metadata.metric = "samples";
  metadata.unit = "samples";
  return std::move(builder).build(std::move(metadata));
}

// Paper figure 2 (seed 004).
inline CallTree figure2() {
  return tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;c", 10}, {"a;b;c;d", 50}, {"a;c", 5}, {"a;c;e", 32}});
}

}  // namespace bn::calltree::testing
