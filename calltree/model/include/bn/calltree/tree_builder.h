#pragma once
// Accumulates stacks (outermost frame first) with costs into a call tree, merging equal
// calling contexts. Used by importers, the generator and tests; the file reader builds its
// NodeTable directly.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/child_index.h"
#include "bn/calltree/utf8.h"

namespace bn::calltree {

class TreeBuilder {
 public:
  TreeBuilder();

  // A name that is not UTF-8 is interned with its stray bytes as U+FFFD (utf8.h), so every
  // importer's tree can be written in the native format.
  MethodId intern(std::string_view name) {
    return is_valid_utf8(name) ? names_.intern(name) : names_.intern(repaired_utf8(name));
  }
  // The node for calling context `parent` → `method`, created on first use.
  NodeId child(NodeId parent, MethodId method);
  // Adds `cost` to the node of the stack `frames` (outermost first); returns that node.
  NodeId add_stack(std::span<const MethodId> frames, Cost cost);
  // Adds `cost` to an existing node. Throws bn::Error if the node's cost would overflow.
  void add_cost(NodeId node, Cost cost);
  // Several metrics (metric.h): declares metrics 1.. (metric 0 is the one build's metadata
  // names), before any node is made; then add_metric_cost adds to any of them (0: add_cost).
  void declare_extra_metrics(std::vector<MetricSpec> extra);
  void add_metric_cost(std::size_t metric, NodeId node, Cost cost);
  std::size_t node_count() const { return table_.parent.size(); }

  // Consumes the builder.
  CallTree build(Metadata metadata) &&;

 private:
  NodeTable table_;
  std::vector<MetricColumn> extra_metrics_;
  StringTable names_;
  ChildIndex children_;
  // The previous stack and its nodes: collapsed files list stacks sorted, so consecutive stacks
  // share long prefixes that need no lookup.
  std::vector<MethodId> last_frames_;
  std::vector<NodeId> last_nodes_;
};

}  // namespace bn::calltree
