#include "frame_tree.h"

#include <algorithm>

#include "bn/calltree/frame_names.h"
#include "bn/calltree/string_table.h"
#include "jvm_text.h"

namespace bn::agent {
namespace {

// Deallocates a JVMTI string when it goes out of scope.
struct JvmtiString {
  jvmtiEnv* jvmti;
  char* text = nullptr;
  ~JvmtiString() {
    if (text != nullptr) jvmti->Deallocate(reinterpret_cast<unsigned char*>(text));
  }
};

}  // namespace

calltree::MethodId FrameTree::method(jvmtiEnv* jvmti, jmethodID id) {
  const auto it = methods_.find(id);
  if (it != methods_.end()) return it->second;
  JvmtiString name{jvmti}, klass_sig{jvmti};
  jclass klass = nullptr;
  if (jvmti->GetMethodName(id, &name.text, nullptr, nullptr) != JVMTI_ERROR_NONE ||
      jvmti->GetMethodDeclaringClass(id, &klass) != JVMTI_ERROR_NONE ||
      jvmti->GetClassSignature(klass, &klass_sig.text, nullptr) != JVMTI_ERROR_NONE) {
    return calltree::kNoMethod;
  }
  // "Lpkg/Outer$Inner;" + "run" → "pkg/Outer$Inner.run"; normalize_frame turns slashes into
  // dots and strips per-run lambda and hidden-class numbers (GUIDE.md sec. 4).
  std::string_view sig(klass_sig.text);
  if (sig.size() >= 2 && sig.front() == 'L' && sig.back() == ';') sig = sig.substr(1, sig.size() - 2);
  std::string full(sig);
  full += '.';
  full += name.text;
  const calltree::MethodId m = intern(calltree::normalize_frame(standard_utf8(full)));
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
  if (c.costs.size() <= node) {
    c.costs.resize(parents_.size() + 1, 0);
    c.flushed.resize(parents_.size() + 1, 0);
  }
  if (c.costs[node] == c.flushed[node]) c.touched.push_back(node);
  c.costs[node] += amount;
}

void FrameTree::Column::take(Increments& into) {
  into.clear();
  std::sort(touched.begin(), touched.end());
  into.reserve(touched.size());
  for (const calltree::NodeId node : touched) {
    // A node touched twice in one interval may have come back to its flushed cost only if
    // increments can be negative, which no engine adds; skip zero increments all the same.
    if (costs[node] != flushed[node]) into.emplace_back(node, costs[node] - flushed[node]);
    flushed[node] = costs[node];
  }
  touched.clear();
}

void FrameTree::take_pending(Pending& p) {
  p.strings.assign(names_.begin() + static_cast<std::ptrdiff_t>(flushed_strings_), names_.end());
  p.parents.assign(parents_.begin() + static_cast<std::ptrdiff_t>(flushed_nodes_), parents_.end());
  p.methods.assign(node_methods_.begin() + static_cast<std::ptrdiff_t>(flushed_nodes_), node_methods_.end());
  columns_[0].take(p.costs);
  p.more_costs.resize(columns_.size() - 1);
  for (std::size_t m = 1; m < columns_.size(); ++m) columns_[m].take(p.more_costs[m - 1]);
  flushed_strings_ = names_.size();
  flushed_nodes_ = parents_.size();
}

calltree::CallTree FrameTree::build(calltree::Metadata metadata) const {
  calltree::NodeTable table;
  table.parent.reserve(parents_.size() + 1);
  table.parent.push_back(calltree::kNoNode);
  table.parent.insert(table.parent.end(), parents_.begin(), parents_.end());
  table.method.push_back(calltree::kNoMethod);
  table.method.insert(table.method.end(), node_methods_.begin(), node_methods_.end());
  table.cost.assign(parents_.size() + 1, 0);
  const std::vector<calltree::Cost>& costs = columns_[0].costs;
  std::copy(costs.begin(), costs.begin() + static_cast<std::ptrdiff_t>(std::min(costs.size(), table.cost.size())),
            table.cost.begin());
  calltree::StringTable strings;
  for (const std::string& n : names_) strings.intern(n);
  return calltree::CallTree::build(std::move(table), std::move(strings), std::move(metadata));
}

}  // namespace bn::agent
