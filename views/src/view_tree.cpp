#include "view_tree.h"

#include "bn/views/pseudo_names.h"

namespace bn::views::detail {

using calltree::kNoMethod;
using calltree::kNoNode;
using calltree::MethodId;
using calltree::NodeId;

ViewTree::ViewTree(const calltree::CallTree& recorded, const calltree::SampleData& samples,
                   const ThreadClasses& classes)
    : recorded_(recorded),
      samples_(samples),
      classes_(classes),
      copy_(recorded.node_count(), kNoNode),
      method_(recorded.method_count(), kNoMethod),
      holder_method_(recorded.method_count(), kNoMethod),
      class_method_(classes.names.size(), kNoMethod) {
  copy_[calltree::kRootNode] = calltree::kRootNode;
  for (const TimeType t : kAllTimeTypes) typed_[static_cast<std::size_t>(t)] = intern_refining(name_of(t));
}

NodeId ViewTree::stack(NodeId recorded_node) {
  if (copy_[recorded_node] != kNoNode) return copy_[recorded_node];
  path_.clear();
  NodeId n = recorded_node;
  for (; copy_[n] == kNoNode; n = recorded_.parent(n)) path_.push_back(n);
  NodeId at = copy_[n];
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    const MethodId m = recorded_.method(*it);
    if (method_[m] == kNoMethod) method_[m] = builder_.intern(recorded_.method_name(m));
    at = builder_.child(at, method_[m]);
    copy_[*it] = at;
  }
  return at;
}

NodeId ViewTree::measurement(const calltree::SampleRecord& r, const Part& part, bool typed) {
  const NodeId leaf = stack(r.node);
  if (!typed) return leaf;
  return refinement(builder_.child(leaf, typed_[static_cast<std::size_t>(part.type)]), part);
}

NodeId ViewTree::refinement(NodeId typed, const Part& part) {
  if (part.by == kNoClass) return typed;
  if (unknown_ == kNoMethod) unknown_ = intern_refining(kUnknownNode);
  if (part.by == kUnknownClass) return builder_.child(typed, unknown_);
  const NodeId by = builder_.child(typed, name_of_class(part.by));
  if (part.type != TimeType::monitor) return by;
  if (part.holder == kNoRecord) return builder_.child(by, unknown_);
  return holder_stack(by, samples_.records[part.holder].node);
}

NodeId ViewTree::holder_stack(NodeId below, NodeId holder_leaf) {
  const std::uint64_t key = (std::uint64_t{below} << 32) | holder_leaf;
  if (const auto it = holder_leaf_.find(key); it != holder_leaf_.end()) return it->second;
  path_.clear();
  for (NodeId n = holder_leaf; n != calltree::kRootNode; n = recorded_.parent(n)) path_.push_back(n);
  NodeId at = below;
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    const MethodId m = recorded_.method(*it);
    if (holder_method_[m] == kNoMethod) holder_method_[m] = intern_refining(holder_frame(recorded_.method_name(m)));
    at = builder_.child(at, holder_method_[m]);
  }
  holder_leaf_.emplace(key, at);
  return at;
}

MethodId ViewTree::name_of_class(std::uint32_t thread_class) {
  MethodId& m = class_method_[thread_class];
  if (m == kNoMethod) m = intern_refining(thread_class_node(classes_.names[thread_class]));
  return m;
}

MethodId ViewTree::intern_refining(std::string_view name) {
  const MethodId m = builder_.intern(name);
  if (m >= refining_.size()) refining_.resize(m + 1, false);
  refining_[m] = true;
  return m;
}

}  // namespace bn::views::detail
