#include "bn/calltree/call_tree.h"

#include <algorithm>
#include <string>
#include <utility>

#include "bn/base/error.h"
#include "closing_walk.h"

namespace bn::calltree {
namespace {

[[noreturn]] void invalid(std::size_t node, const std::string& what) {
  throw Error("invalid call tree: node " + std::to_string(node) + " " + what);
}

[[noreturn]] void cum_overflow() { throw Error("invalid call tree: costs add up to more than a 64-bit total"); }

void validate(const NodeTable& t, std::size_t method_count) {
  const std::size_t n = t.parent.size();
  if (n == 0) throw Error("invalid call tree: no root node");
  if (n > kMaxNodes) throw Error("invalid call tree: " + std::to_string(n) + " nodes is more than supported");
  if (t.method.size() != n || t.cost.size() != n)
    throw Error("invalid call tree: parent, method and cost columns differ in length");
  if (t.parent[0] != kNoNode) invalid(0, "(the root) has a parent");
  if (t.references_checked) return;  // by the reader, node by node (NodeTable::references_checked)
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

// Names that `find_metric` can tell apart, columns as long as the table.
void validate_metrics(const std::vector<MetricColumn>& extra, const Metadata& metadata, std::size_t nodes) {
  if (extra.size() > kMaxExtraMetrics)
    throw Error("invalid call tree: " + std::to_string(extra.size()) + " extra metrics, more than the " +
                std::to_string(kMaxExtraMetrics) + " supported");
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const std::string where = "invalid call tree: metric " + std::to_string(k + 1);
    const std::string& name = extra[k].spec.name;
    if (name.empty()) throw Error(where + " has no name");
    if (name == metadata.metric) throw Error(where + " is called '" + name + "' like metric 0");
    for (std::size_t j = 0; j < k; ++j)
      if (extra[j].spec.name == name)
        throw Error(where + " is called '" + name + "' like metric " + std::to_string(j + 1));
    if (extra[k].cost.size() != nodes)
      throw Error(where + " ('" + name + "') has " + std::to_string(extra[k].cost.size()) + " costs for " +
                  std::to_string(nodes) + " nodes");
  }
}

// Cum-costs of one cost column over a tree in preorder: reverse preorder visits children before
// parents, so they accumulate in one pass.
void accumulate_cum(std::span<const NodeId> parent, std::span<Cost> cum) {
  for (std::size_t i = cum.size() - 1; i > 0; --i) {
    if (__builtin_add_overflow(cum[parent[i]], cum[i], &cum[parent[i]])) cum_overflow();
  }
}

}  // namespace

std::string_view CallTree::node_name(NodeId n) const {
  return method_[n] == kNoMethod ? std::string_view("(root)") : names_[method_[n]];
}

std::span<const NodeId> CallTree::nodes_of(MethodId m) const {
  MethodLists& lists = *method_lists_;
  if (!lists.indexed.load(std::memory_order_acquire)) {
    const std::lock_guard guard(lists.lock);
    if (!lists.indexed.load(std::memory_order_relaxed)) {
      for (const auto& [method, nodes] : lists.scanned)
        if (method == m) return nodes;
      if (lists.scanned.size() < kScannedMethods) {
        // A list's buffer does not move when `scanned` grows, so earlier spans stay valid.
        lists.scanned.emplace_back(m, scan_method(m));
        return lists.scanned.back().second;
      }
      index_methods(lists);
      lists.indexed.store(true, std::memory_order_release);
    }
  }
  return {lists.nodes.data() + lists.begin[m], lists.begin[m + 1] - lists.begin[m]};
}

// The nodes of m in preorder: one read of the method column in order (40 MB at 10M nodes, at the
// speed of memory), no scattered writes and no memory but the list's.
std::vector<NodeId> CallTree::scan_method(MethodId m) const {
  std::vector<NodeId> nodes;
  const MethodId* method = method_.data();
  for (std::size_t i = 1; i < method_.size(); ++i)
    if (method[i] == m) nodes.push_back(static_cast<NodeId>(i));
  return nodes;
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
// the tree as they are, and one pass over the nodes as they close (closing_walk.h) finds subtree
// sizes, sums cum-costs and checks siblings: no renumbering, no child lists and none of their
// memory (about 28 bytes per node at the peak of a load). A big table is walked in two halves on
// two threads.
// Returns adopted = false, leaving `table` intact, if the table is not in preorder.
CallTree::PreorderPass CallTree::adopt_preorder(NodeTable& table, std::size_t method_count) {
  const std::size_t n = table.parent.size();
  ClosingWalk walk;
  if (table.walked && table.walked->size.size() == n) {  // by the reader (EarlyWalk)
    walk = table.walked->walk;
    subtree_size_ = std::move(table.walked->size);
    cum_cost_ = std::move(table.walked->cum);
  } else {
    subtree_size_.resize(n);
    cum_cost_.resize(n);
    walk = close_in_preorder(table.parent, table.method, table.cost, method_count, subtree_size_, cum_cost_,
                             n >= kTwoThreadWalk ? n / 2 : 0);
  }
  if (!walk.preorder) return {};
  // Children have always been added to their parent in reverse preorder (accumulate_cum); the walk
  // adds them in another order. With all costs >= 0 a partial sum overflows in any order exactly
  // when some node's cum-cost does; with a negative one it may in one order and not another, so
  // accumulate_cum_costs sums them again, in its order, and which trees load stays the same.
  PreorderPass pass{.adopted = true,
                    .repeated_sibling = walk.repeated_sibling,
                    .cum_costs_summed = !walk.negative,
                    .cum_overflow = walk.cum_overflow};
  parent_ = std::move(table.parent);
  method_ = std::move(table.method);
  cost_ = std::move(table.cost);
  return pass;
}

// The general case: child lists (CSR) in table order, then an explicit-stack DFS assigns
// preorder numbers. Returns new_id: table index -> preorder number.
std::vector<NodeId> CallTree::renumber(const NodeTable& table) {
  const std::size_t n = table.parent.size();
  std::vector<std::uint32_t> child_begin(n + 1, 0);
  for (std::size_t i = 1; i < n; ++i) ++child_begin[table.parent[i] + 1];
  for (std::size_t i = 0; i < n; ++i) child_begin[i + 1] += child_begin[i];
  // Every table holds the root; the guard is for GCC 12, which cannot see that n - 1 does not
  // wrap and warns (-Walloc-size-larger-than) in a Release build, which BN_WERROR fails.
  std::vector<NodeId> children(n == 0 ? 0 : n - 1);
  {
    std::vector<std::uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
    for (std::size_t i = 1; i < n; ++i) children[fill[table.parent[i]]++] = static_cast<NodeId>(i);
  }

  parent_.resize(n);
  method_.resize(n);
  cost_.resize(n);
  subtree_size_.resize(n);

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
    stack.push_back({child, child_begin[child]});
  }
  for (std::size_t i = 0; i < n; ++i) {
    method_[new_id[i]] = table.method[i];
    cost_[new_id[i]] = table.cost[i];
  }
  return new_id;
}

CallTree CallTree::build(NodeTable table, StringTable names, Metadata metadata,
                         std::vector<MetricColumn> extra_metrics) {
  validate(table, names.size());
  const std::size_t n = table.parent.size();
  validate_metrics(extra_metrics, metadata, n);

  CallTree tree;
  std::vector<NodeId> new_id;  // empty when the table was in preorder (ids unchanged)
  const PreorderPass pass = tree.adopt_preorder(table, names.size());
  if (!pass.adopted) new_id = tree.renumber(table);
  table = NodeTable{};
  tree.names_ = std::move(names);

  if (!pass.adopted || pass.repeated_sibling) {
    if (const auto [p, m] = tree.first_repeated_sibling(); p != kNoNode) {
      // Name the node as the input numbers it.
      const auto old =
          new_id.empty() ? p : static_cast<NodeId>(std::find(new_id.begin(), new_id.end(), p) - new_id.begin());
      invalid(old, "has two children labelled '" + std::string(tree.names_[m]) + "'");
    }
  }

  if (!pass.cum_costs_summed)
    tree.accumulate_cum_costs();
  else if (pass.cum_overflow)
    cum_overflow();
  for (MetricColumn& column : extra_metrics) {
    if (!new_id.empty()) {
      std::vector<Cost> renumbered(n);
      for (std::size_t i = 0; i < n; ++i) renumbered[new_id[i]] = column.cost[i];
      column.cost = std::move(renumbered);
    }
    // Checked here so that with_metric cannot fail on a tree that loaded.
    std::vector<Cost> cum = column.cost;
    accumulate_cum(tree.parent_, cum);
  }

  tree.metadata_ = std::move(metadata);
  tree.extra_metrics_ = std::move(extra_metrics);
  tree.figure_base_costs();
  return tree;
}

void CallTree::accumulate_cum_costs() {
  cum_cost_.assign(cost_.begin(), cost_.end());
  accumulate_cum(parent_, cum_cost_);
}

MetricSpec CallTree::metric_spec(std::size_t metric) const {
  return metric == 0 ? MetricSpec{metadata_.metric, metadata_.unit} : extra_metrics_[metric - 1].spec;
}

Cost CallTree::metric_total(std::size_t metric) const {
  if (metric == 0) return total_cost();
  Cost total = 0;
  for (Cost c : extra_metrics_[metric - 1].cost) total += c;  // build checked that it fits
  return total;
}

std::optional<std::size_t> CallTree::find_metric(std::string_view name) const {
  if (name == metadata_.metric) return 0;
  for (std::size_t k = 0; k < extra_metrics_.size(); ++k)
    if (extra_metrics_[k].spec.name == name) return k + 1;
  return std::nullopt;
}

CallTree CallTree::with_metric(std::size_t metric) && {
  if (metric >= metric_count())
    throw Error("the call tree has no metric " + std::to_string(metric) + " (it has " + std::to_string(metric_count()) +
                ")");
  if (metric == 0) return std::move(*this);
  // [0, 1, .., k, ..] becomes [k, 0, 1, .., k - 1, k + 1, ..].
  MetricColumn chosen = std::move(extra_metrics_[metric - 1]);
  extra_metrics_.erase(extra_metrics_.begin() + static_cast<std::ptrdiff_t>(metric - 1));
  extra_metrics_.insert(extra_metrics_.begin(),
                        MetricColumn{{std::move(metadata_.metric), std::move(metadata_.unit)}, std::move(cost_)});
  cost_ = std::move(chosen.cost);
  metadata_.metric = std::move(chosen.spec.name);
  metadata_.unit = std::move(chosen.spec.unit);
  accumulate_cum_costs();  // cannot overflow: build checked every metric
  figure_base_costs();
  return std::move(*this);
}

CallTree CallTree::with_extra_metric(MetricColumn column) && {
  if (column.cost.size() != node_count())
    throw Error("metric '" + column.spec.name + "' has " + std::to_string(column.cost.size()) + " costs for " +
                std::to_string(node_count()) + " nodes");
  if (find_metric(column.spec.name)) throw Error("the call tree already has a metric '" + column.spec.name + "'");
  if (extra_metrics_.size() == kMaxExtraMetrics)
    throw Error("the call tree has the most metrics a tree may have (" + std::to_string(1 + kMaxExtraMetrics) + ")");
  std::vector<Cost> cum = column.cost;
  accumulate_cum(parent_, cum);  // with_metric relies on every metric's cum-costs fitting
  extra_metrics_.push_back(std::move(column));
  return std::move(*this);
}

// Copies member by member: CallTree has no copy constructor, so a tree is never copied by accident.
CallTree CallTree::with_metric(std::size_t metric) const& {
  CallTree copy;
  copy.parent_ = parent_;
  copy.method_ = method_;
  copy.cost_ = cost_;
  copy.cum_cost_ = cum_cost_;
  copy.subtree_size_ = subtree_size_;
  copy.names_ = names_.copy();
  copy.metadata_ = metadata_;
  copy.extra_metrics_ = extra_metrics_;
  copy.refining_ = refining_;
  copy.figure_base_costs();
  return std::move(copy).with_metric(metric);
}

void CallTree::figure_depths() const {
  Depths& depths = *depths_;
  const std::lock_guard guard(depths.lock);
  if (depths.figured.load(std::memory_order_relaxed)) return;
  depths.of.resize(parent_.size());  // the root's is 0
  // Preorder puts every parent before its children.
  for (std::size_t i = 1; i < parent_.size(); ++i) depths.of[i] = depths.of[parent_[i]] + 1;
  depths.figured.store(true, std::memory_order_release);
}

// A counting sort of the nodes by method.
void CallTree::index_methods(MethodLists& lists) const {
  const std::size_t m = names_.size();
  lists.begin.assign(m + 1, 0);
  for (std::size_t i = 1; i < method_.size(); ++i) ++lists.begin[method_[i] + 1];
  for (std::size_t i = 0; i < m; ++i) lists.begin[i + 1] += lists.begin[i];
  lists.nodes.resize(method_.size() - 1);
  std::vector<std::uint32_t> fill(lists.begin.begin(), lists.begin.end() - 1);
  // Visiting nodes in preorder leaves each method's list sorted. Each write goes to its method's
  // place in 40 MB (at 10M nodes); the method column says where the node kAhead places on will
  // write, so that line is fetched while this one is written.
  constexpr std::size_t kAhead = 16;
  std::size_t i = 1;
  for (; i + kAhead < method_.size(); ++i) {
    __builtin_prefetch(&lists.nodes[fill[method_[i + kAhead]]], 1);
    lists.nodes[fill[method_[i]]++] = static_cast<NodeId>(i);
  }
  for (; i < method_.size(); ++i) lists.nodes[fill[method_[i]]++] = static_cast<NodeId>(i);
}

}  // namespace bn::calltree
