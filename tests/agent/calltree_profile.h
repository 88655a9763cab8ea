#pragma once
// Reading a mode=calltree profile in the call-tree end-to-end tests: its calls as the cost, and
// nodes found by path.

#include <doctest/doctest.h>

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/profile_reader.h"

namespace bn::test {

namespace ct = bn::calltree;

// The profile at `file` with its calls as the cost.
inline ct::LoadedProfile read_calls(const std::filesystem::path& file) {
  ct::LoadedProfile p = ct::read_profile(file);
  const auto calls = p.tree.find_metric("calls");
  REQUIRE(calls);
  p.tree = std::move(p.tree).with_metric(*calls);
  return p;
}

// The node reached from the root through these methods, if any.
inline std::optional<ct::NodeId> node_at(const ct::CallTree& tree, std::initializer_list<std::string_view> path) {
  ct::NodeId node = ct::kRootNode;
  for (const std::string_view name : path) {
    std::optional<ct::NodeId> next;
    for (const ct::NodeId child : tree.children(node))
      if (tree.node_name(child) == name) next = child;
    if (!next) return std::nullopt;
    node = *next;
  }
  return node;
}

// The child of `path` whose name starts with `prefix` (javac numbers lambdas), as a full name.
inline std::string child_named_like(const ct::CallTree& tree, std::initializer_list<std::string_view> path,
                                    std::string_view prefix) {
  const auto node = node_at(tree, path);
  if (node)
    for (const ct::NodeId child : tree.children(*node))
      if (tree.node_name(child).starts_with(prefix)) return std::string(tree.node_name(child));
  return {};
}

}  // namespace bn::test
