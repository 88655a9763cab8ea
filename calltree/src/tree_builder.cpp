#include "bn/calltree/tree_builder.h"

#include "bn/iface/error.h"

namespace bn::calltree {

TreeBuilder::TreeBuilder() {
  table_.parent.push_back(kNoNode);
  table_.method.push_back(kNoMethod);
  table_.cost.push_back(0);
}

NodeId TreeBuilder::child(NodeId parent, MethodId method) {
  auto [it, inserted] = children_.try_emplace(key(parent, method), 0);
  if (inserted) {
    if (table_.parent.size() >= kMaxNodes) throw Error("call tree has more nodes than supported");
    it->second = static_cast<NodeId>(table_.parent.size());
    table_.parent.push_back(parent);
    table_.method.push_back(method);
    table_.cost.push_back(0);
  }
  return it->second;
}

NodeId TreeBuilder::add_stack(std::span<const MethodId> frames, Cost cost) {
  NodeId node = kRootNode;
  for (MethodId m : frames) node = child(node, m);
  add_cost(node, cost);
  return node;
}

void TreeBuilder::add_cost(NodeId node, Cost cost) {
  if (__builtin_add_overflow(table_.cost[node], cost, &table_.cost[node]))
    throw Error("cost of a call-tree node exceeds the 64-bit range");
}

CallTree TreeBuilder::build(Metadata metadata) && {
  children_.clear();
  return CallTree::build(std::move(table_), std::move(names_), std::move(metadata));
}

}  // namespace bn::calltree
