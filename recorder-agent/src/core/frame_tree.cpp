#include "core/frame_tree.h"

#include <algorithm>
#include <stdexcept>

#include "bn/calltree/string_table.h"
#include "core/method_names.h"

namespace bn::agent {

FrameTree::FrameTree(std::size_t metrics, Totals totals) : wide_{false}, totals_(totals), columns_(metrics) {
  first_child_.push_back(calltree::kNoNode);
  next_sibling_.push_back(calltree::kNoNode);
}

calltree::MethodId FrameTree::method(jvmtiEnv* jvmti, jmethodID id) {
  const auto it = methods_.find(id);
  if (it != methods_.end()) return it->second;
  std::string name;
  if (!method_name(jvmti, id, name)) return calltree::kNoMethod;
  const calltree::MethodId m = intern(name);
  methods_.emplace(id, m);
  return m;
}

calltree::MethodId FrameTree::intern(std::string_view name) {
  const auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  const auto m = static_cast<calltree::MethodId>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(std::string(name), m);
  return m;
}

calltree::NodeId FrameTree::child(calltree::NodeId parent, calltree::MethodId method) {
  std::size_t listed = 0;
  if (wide_[parent]) {
    const calltree::NodeId found = wide_children_.find(parent, method);
    if (found != calltree::kNoNode) return found;
  } else {
    for (calltree::NodeId c = first_child_[parent]; c != calltree::kNoNode; c = next_sibling_[c], ++listed)
      if (node_methods_[c - 1] == method) return c;
  }
  parents_.push_back(parent);
  node_methods_.push_back(method);
  const auto node = static_cast<calltree::NodeId>(parents_.size());
  first_child_.push_back(calltree::kNoNode);
  next_sibling_.push_back(first_child_[parent]);
  wide_.push_back(false);
  first_child_[parent] = node;
  if (wide_[parent]) {
    wide_children_.insert(parent, method, node);
  } else if (listed + 1 > kListedChildren) {
    wide_[parent] = true;
    for (calltree::NodeId c = node; c != calltree::kNoNode; c = next_sibling_[c])
      wide_children_.insert(parent, node_methods_[c - 1], c);
  }
  return node;
}

void FrameTree::add_cost(calltree::NodeId node, std::size_t metric, calltree::Cost amount) {
  if (amount == 0) return;
  Column& c = columns_[metric];
  if (c.pending.size() <= node) {
    c.pending.resize(parents_.size() + 1, 0);
    if (totals_ == Totals::kKept) c.flushed.resize(parents_.size() + 1, 0);
  }
  if (c.pending[node] == 0) c.touched.push_back(node);
  c.pending[node] += amount;
}

void FrameTree::Column::take(Increments& into, Totals totals) {
  into.clear();
  std::sort(touched.begin(), touched.end());
  into.reserve(touched.size());
  for (const calltree::NodeId node : touched) {
    // A node touched twice in one interval may have come back to zero pending only if
    // increments can be negative, which no engine adds; skip zero increments all the same.
    if (pending[node] == 0) continue;
    into.emplace_back(node, pending[node]);
    if (totals == Totals::kKept) flushed[node] += pending[node];
    pending[node] = 0;
  }
  touched.clear();
}

void FrameTree::take_pending(Pending& p) {
  p.strings.assign(names_.begin() + static_cast<std::ptrdiff_t>(flushed_strings_), names_.end());
  p.parents = std::span<const calltree::NodeId>(parents_.begin() + flushed_nodes_, parents_.end());
  p.methods = std::span<const calltree::MethodId>(node_methods_.begin() + flushed_nodes_, node_methods_.end());
  columns_[0].take(p.costs, totals_);
  p.more_costs.resize(columns_.size() - 1);
  for (std::size_t m = 1; m < columns_.size(); ++m) columns_[m].take(p.more_costs[m - 1], totals_);
  flushed_strings_ = names_.size();
  flushed_nodes_ = parents_.size();
}

calltree::CallTree FrameTree::build(calltree::Metadata metadata) const {
  if (totals_ == Totals::kDropped) throw std::logic_error("FrameTree::build: this tree keeps no totals");
  calltree::NodeTable table;
  table.parent.reserve(parents_.size() + 1);
  table.parent.push_back(calltree::kNoNode);
  table.parent.insert(table.parent.end(), parents_.begin(), parents_.end());
  table.method.push_back(calltree::kNoMethod);
  table.method.insert(table.method.end(), node_methods_.begin(), node_methods_.end());
  table.cost.assign(parents_.size() + 1, 0);
  const Column& costs = columns_[0];
  for (std::size_t node = 0; node < costs.pending.size(); ++node)
    table.cost[node] = costs.flushed[node] + costs.pending[node];
  calltree::StringTable strings;
  for (const std::string& n : names_) strings.intern(n);
  return calltree::CallTree::build(std::move(table), std::move(strings), std::move(metadata));
}

}  // namespace bn::agent
