#include "bn/calltree/call_tree.h"

#include <algorithm>
#include <string>
#include <utility>

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

// Siblings must differ in method (the paper's call tree has one path per calling context).
// Returns the first node of `tree` with two children labelled alike, or kNoNode.
std::pair<NodeId, MethodId> CallTree::first_repeated_sibling() const {
  // seen[m] == p: a child of p labelled m was met. The children of one node are visited together,
  // so one stamp per method finds a repeat without sorting (a sort per node cost 60 instructions
  // per node on a 1.1M-node load).
  std::vector<NodeId> seen(names_.size(), kNoNode);
  for (NodeId p = 0; p < node_count(); ++p) {
    if (subtree_size_[p] < 3) continue;  // fewer than two children
    for (NodeId c : children(p)) {
      if (seen[method_[c]] == p) return {p, method_[c]};
      seen[method_[c]] = p;
    }
  }
  return {kNoNode, kNoMethod};
}

// Files written by write_profile list nodes in preorder already. Then the columns move into
// the tree as they are and one pass finds depths and subtree sizes: no renumbering, no child
// lists, and none of their memory (about 28 bytes per node at the peak of a load).
// Returns false, leaving `table` intact, if the table is not in preorder.
bool CallTree::adopt_preorder(NodeTable& table) {
  const std::size_t n = table.parent.size();
  subtree_size_.resize(n);
  depth_.resize(n);
  // The path from the root to the previous node; in preorder a node's parent is on it.
  std::vector<NodeId> path{kRootNode};
  depth_[0] = 0;
  for (std::size_t i = 1; i < n; ++i) {
    const NodeId p = table.parent[i];
    while (path.back() != p) {
      subtree_size_[path.back()] = static_cast<std::uint32_t>(i - path.back());
      path.pop_back();
      if (path.empty()) return false;
    }
    depth_[i] = static_cast<std::uint32_t>(path.size());
    path.push_back(static_cast<NodeId>(i));
  }
  for (NodeId v : path) subtree_size_[v] = static_cast<std::uint32_t>(n - v);
  parent_ = std::move(table.parent);
  method_ = std::move(table.method);
  cost_ = std::move(table.cost);
  return true;
}

// The general case: child lists (CSR) in table order, then an explicit-stack DFS assigns
// preorder numbers. Returns new_id: table index -> preorder number.
std::vector<NodeId> CallTree::renumber(const NodeTable& table) {
  const std::size_t n = table.parent.size();
  std::vector<std::uint32_t> child_begin(n + 1, 0);
  for (std::size_t i = 1; i < n; ++i) ++child_begin[table.parent[i] + 1];
  for (std::size_t i = 0; i < n; ++i) child_begin[i + 1] += child_begin[i];
  std::vector<NodeId> children(n - 1);
  {
    std::vector<std::uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
    for (std::size_t i = 1; i < n; ++i) children[fill[table.parent[i]]++] = static_cast<NodeId>(i);
  }

  parent_.resize(n);
  method_.resize(n);
  cost_.resize(n);
  subtree_size_.resize(n);
  depth_.resize(n);

  std::vector<NodeId> new_id(n);
  struct Frame {
    NodeId old_id;
    std::uint32_t next_child;
  };
  std::vector<Frame> stack;
  stack.push_back({0, child_begin[0]});
  NodeId next = 0;
  new_id[0] = next++;
  parent_[0] = kNoNode;
  depth_[0] = 0;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_child == child_begin[top.old_id + 1]) {
      const NodeId id = new_id[top.old_id];
      subtree_size_[id] = next - id;
      stack.pop_back();
      continue;
    }
    const NodeId child = children[top.next_child++];
    const NodeId id = next++;
    new_id[child] = id;
    parent_[id] = new_id[top.old_id];
    depth_[id] = depth_[parent_[id]] + 1;
    stack.push_back({child, child_begin[child]});
  }
  for (std::size_t i = 0; i < n; ++i) {
    method_[new_id[i]] = table.method[i];
    cost_[new_id[i]] = table.cost[i];
  }
  return new_id;
}

CallTree CallTree::build(NodeTable table, StringTable names, Metadata metadata) {
  validate(table, names.size());
  const std::size_t n = table.parent.size();

  CallTree tree;
  std::vector<NodeId> new_id;  // empty when the table was in preorder (ids unchanged)
  if (!tree.adopt_preorder(table)) new_id = tree.renumber(table);
  table = NodeTable{};
  tree.names_ = std::move(names);

  if (const auto [p, m] = tree.first_repeated_sibling(); p != kNoNode) {
    // Name the node as the input numbers it.
    const auto old =
        new_id.empty() ? p : static_cast<NodeId>(std::find(new_id.begin(), new_id.end(), p) - new_id.begin());
    invalid(old, "has two children labelled '" + std::string(tree.names_[m]) + "'");
  }

  // Reverse preorder visits children before parents, so cum-costs accumulate in one pass.
  tree.cum_cost_ = tree.cost_;
  for (std::size_t i = n - 1; i > 0; --i) {
    if (__builtin_add_overflow(tree.cum_cost_[tree.parent_[i]], tree.cum_cost_[i], &tree.cum_cost_[tree.parent_[i]]))
      throw Error("invalid call tree: costs add up to more than a 64-bit total");
  }

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
  for (std::size_t i = 1; i < method_.size(); ++i) method_nodes_[fill[method_[i]]++] = static_cast<NodeId>(i);
}

}  // namespace bn::calltree
