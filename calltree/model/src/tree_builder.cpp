#include "bn/calltree/tree_builder.h"

#include "bn/base/error.h"

namespace bn::calltree {

TreeBuilder::TreeBuilder() {
  table_.parent.push_back(kNoNode);
  table_.method.push_back(kNoMethod);
  table_.cost.push_back(0);
}

NodeId TreeBuilder::child(NodeId parent, MethodId method) {
  if (const NodeId existing = children_.find(parent, method); existing != kNoNode) return existing;
  if (table_.parent.size() >= kMaxNodes) throw Error("call tree has more nodes than supported");
  const auto id = static_cast<NodeId>(table_.parent.size());
  table_.parent.push_back(parent);
  table_.method.push_back(method);
  table_.cost.push_back(0);
  for (MetricColumn& column : extra_metrics_) column.cost.push_back(0);
  children_.insert(parent, method, id);
  return id;
}

NodeId TreeBuilder::add_stack(std::span<const MethodId> frames, Cost cost) {
  std::size_t shared = 0;
  while (shared < frames.size() && shared < last_frames_.size() && frames[shared] == last_frames_[shared]) ++shared;
  last_frames_.assign(frames.begin(), frames.end());
  last_nodes_.resize(shared);
  NodeId node = shared == 0 ? kRootNode : last_nodes_[shared - 1];
  for (std::size_t i = shared; i < frames.size(); ++i) {
    node = child(node, frames[i]);
    last_nodes_.push_back(node);
  }
  add_cost(node, cost);
  return node;
}

void TreeBuilder::add_cost(NodeId node, Cost cost) {
  if (__builtin_add_overflow(table_.cost[node], cost, &table_.cost[node]))
    throw Error("cost of a call-tree node exceeds the 64-bit range");
}

void TreeBuilder::declare_extra_metrics(std::vector<MetricSpec> extra) {
  if (node_count() > 1) throw Error("extra metrics must be declared before the first stack");
  extra_metrics_.clear();
  for (MetricSpec& spec : extra) extra_metrics_.push_back({std::move(spec), {0}});
}

void TreeBuilder::add_metric_cost(std::size_t metric, NodeId node, Cost cost) {
  if (metric == 0) return add_cost(node, cost);
  Cost& to = extra_metrics_.at(metric - 1).cost[node];
  if (__builtin_add_overflow(to, cost, &to)) throw Error("cost of a call-tree node exceeds the 64-bit range");
}

CallTree TreeBuilder::build(Metadata metadata) && {
  children_.clear();
  return CallTree::build(std::move(table_), std::move(names_), std::move(metadata), std::move(extra_metrics_));
}

}  // namespace bn::calltree
