#pragma once
// Accumulates stacks (outermost frame first) with costs into a call tree, merging equal
// calling contexts. Used by importers, the generator and tests; the file reader builds its
// NodeTable directly.

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bn/calltree/call_tree.h"

namespace bn::calltree {

class TreeBuilder {
 public:
  TreeBuilder();

  MethodId intern(std::string_view name) { return names_.intern(name); }
  // The node for calling context `parent` → `method`, created on first use.
  NodeId child(NodeId parent, MethodId method);
  // Adds `cost` to the node of the stack `frames` (outermost first); returns that node.
  NodeId add_stack(std::span<const MethodId> frames, Cost cost);
  // Adds `cost` to an existing node. Throws bn::Error if the node's cost would overflow.
  void add_cost(NodeId node, Cost cost);
  std::size_t node_count() const { return table_.parent.size(); }

  // Consumes the builder.
  CallTree build(Metadata metadata) &&;

 private:
  static std::uint64_t key(NodeId parent, MethodId method) {
    return (std::uint64_t{parent} << 32) | method;
  }
  NodeTable table_;
  StringTable names_;
  std::unordered_map<std::uint64_t, NodeId> children_;
};

}  // namespace bn::calltree
