#include "bn/calltree/call_tree.h"

#include <algorithm>
#include <string>

#include "bn/iface/error.h"

namespace bn::calltree {
namespace {

[[noreturn]] void invalid(std::size_t node, const std::string& what) {
  throw Error("invalid call tree: node " + std::to_string(node) + " " + what);
}

void validate(const NodeTable& t, std::size_t method_count) {
  const std::size_t n = t.parent.size();
  if (n == 0) throw Error("invalid call tree: no root node");
  if (n > kMaxNodes) throw Error("invalid call tree: " + std::to_string(n) + " nodes is more than supported");
  if (t.method.size() != n || t.cost.size() != n)
    throw Error("invalid call tree: parent, method and cost columns differ in length");
  if (t.parent[0] != kNoNode) invalid(0, "(the root) has a parent");
  for (std::size_t i = 1; i < n; ++i) {
    if (t.parent[i] == kNoNode) invalid(i, "has no parent (only node 0 may be a root)");
    if (t.parent[i] >= i)
      invalid(i, "has parent " + std::to_string(t.parent[i]) +
                     ", which does not come before it (a cycle or forward reference)");
    if (t.method[i] >= method_count)
      invalid(i, "has method id " + std::to_string(t.method[i]) + ", but the string table has " +
                     std::to_string(method_count) + " entries");
  }
}

}  // namespace

std::string_view CallTree::node_name(NodeId n) const {
  return method_[n] == kNoMethod ? std::string_view("(root)") : names_[method_[n]];
}

std::span<const NodeId> CallTree::nodes_of(MethodId m) const {
  return {method_nodes_.data() + method_begin_[m], method_begin_[m + 1] - method_begin_[m]};
}

CallTree CallTree::build(NodeTable table, StringTable names, Metadata metadata) {
  validate(table, names.size());
  const std::size_t n = table.parent.size();

  // Children of each node in table order (CSR), then an explicit-stack DFS assigns preorder.
  std::vector<std::uint32_t> child_begin(n + 1, 0);
  for (std::size_t i = 1; i < n; ++i) ++child_begin[table.parent[i] + 1];
  for (std::size_t i = 0; i < n; ++i) child_begin[i + 1] += child_begin[i];
  std::vector<NodeId> children(n - 1);
  {
    std::vector<std::uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
    for (std::size_t i = 1; i < n; ++i) children[fill[table.parent[i]]++] = static_cast<NodeId>(i);
  }

  // The paper's call tree has exactly one path per calling context: siblings differ in method.
  {
    std::vector<MethodId> sibling_methods;
    for (std::size_t p = 0; p < n; ++p) {
      const auto first = child_begin[p], last = child_begin[p + 1];
      if (last - first < 2) continue;
      sibling_methods.clear();
      for (auto c = first; c < last; ++c) sibling_methods.push_back(table.method[children[c]]);
      std::sort(sibling_methods.begin(), sibling_methods.end());
      auto dup = std::adjacent_find(sibling_methods.begin(), sibling_methods.end());
      if (dup != sibling_methods.end())
        invalid(p, "has two children labelled '" + std::string(names[*dup]) + "'");
    }
  }

  CallTree tree;
  tree.parent_.resize(n);
  tree.method_.resize(n);
  tree.cost_.resize(n);
  tree.cum_cost_.resize(n);
  tree.subtree_size_.resize(n);
  tree.depth_.resize(n);

  std::vector<NodeId> new_id(n);
  struct Frame {
    NodeId old_id;
    std::uint32_t next_child;
  };
  std::vector<Frame> stack;
  stack.push_back({0, child_begin[0]});
  NodeId next = 0;
  new_id[0] = next++;
  tree.parent_[0] = kNoNode;
  tree.depth_[0] = 0;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_child == child_begin[top.old_id + 1]) {
      const NodeId id = new_id[top.old_id];
      tree.subtree_size_[id] = next - id;
      stack.pop_back();
      continue;
    }
    const NodeId child = children[top.next_child++];
    const NodeId id = next++;
    new_id[child] = id;
    tree.parent_[id] = new_id[top.old_id];
    tree.depth_[id] = tree.depth_[tree.parent_[id]] + 1;
    stack.push_back({child, child_begin[child]});
  }
  for (std::size_t i = 0; i < n; ++i) {
    tree.method_[new_id[i]] = table.method[i];
    tree.cost_[new_id[i]] = table.cost[i];
  }
  // Reverse preorder visits children before parents, so cum-costs accumulate in one pass.
  tree.cum_cost_ = tree.cost_;
  for (std::size_t i = n - 1; i > 0; --i) {
    if (__builtin_add_overflow(tree.cum_cost_[tree.parent_[i]], tree.cum_cost_[i],
                               &tree.cum_cost_[tree.parent_[i]]))
      throw Error("invalid call tree: costs add up to more than a 64-bit total");
  }

  tree.names_ = std::move(names);
  tree.metadata_ = std::move(metadata);
  tree.index_methods();
  return tree;
}

void CallTree::index_methods() {
  const std::size_t m = names_.size();
  method_begin_.assign(m + 1, 0);
  for (std::size_t i = 1; i < method_.size(); ++i) ++method_begin_[method_[i] + 1];
  for (std::size_t i = 0; i < m; ++i) method_begin_[i + 1] += method_begin_[i];
  method_nodes_.resize(method_.size() - 1);
  std::vector<std::uint32_t> fill(method_begin_.begin(), method_begin_.end() - 1);
  // Visiting nodes in preorder leaves each method's list sorted.
  for (std::size_t i = 1; i < method_.size(); ++i)
    method_nodes_[fill[method_[i]]++] = static_cast<NodeId>(i);
}

}  // namespace bn::calltree
