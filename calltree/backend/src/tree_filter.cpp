#include "bn/calltree/tree_filter.h"

#include <vector>

#include "pattern_matcher.h"

namespace bn::calltree {
namespace {

bool has_cost(const CallTree& tree, NodeId node) {
  for (std::size_t k = 0; k < tree.metric_count(); ++k)
    if (tree.metric_cost(k, node) != 0) return true;
  return false;
}

}  // namespace

CallTree filtered_tree(const CallTree& tree, std::span<const iface::ProfileFilter> filters) {
  const std::size_t n = tree.node_count();
  std::vector<char> passes(n, 1);
  for (const iface::ProfileFilter& filter : filters) {
    PatternMatcher(tree, filter.pattern).scan([&](NodeId node, PatternMatcher::NodeMatch match) {
      if (!filter.passes(match.satisfied)) passes[node] = 0;
    });
    if (!filter.passes(false)) passes[kRootNode] = 0;
  }
  // A node stays while it or a node below it passes with a cost: children come after their parent
  // in preorder, so one backward sweep marks every ancestor of a kept node.
  std::vector<char> kept(n, 0);
  kept[kRootNode] = 1;
  for (NodeId node = static_cast<NodeId>(n); node-- > 1;)
    if (kept[node] || (passes[node] && has_cost(tree, node))) kept[node] = kept[tree.parent(node)] = 1;

  // Kept nodes in their preorder stay in preorder, so build adopts the table as it is.
  std::vector<NodeId> new_id(n, kNoNode);
  NodeTable table;
  std::vector<MetricColumn> extra;
  for (const MetricColumn& column : tree.extra_metrics()) extra.push_back({column.spec, {}});
  for (NodeId node = 0; node < n; ++node) {
    if (!kept[node]) continue;
    new_id[node] = static_cast<NodeId>(table.parent.size());
    table.parent.push_back(node == kRootNode ? kNoNode : new_id[tree.parent(node)]);
    table.method.push_back(tree.method(node));
    table.cost.push_back(passes[node] ? tree.cost(node) : 0);
    for (std::size_t k = 0; k < extra.size(); ++k)
      extra[k].cost.push_back(passes[node] ? tree.metric_cost(k + 1, node) : 0);
  }
  return CallTree::build(std::move(table), tree.names().copy(), tree.metadata(), std::move(extra))
      .with_refining_methods(tree.refining_methods());
}

}  // namespace bn::calltree
