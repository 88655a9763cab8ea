#pragma once
// The immutable in-memory call tree (seed 004 sec. 2.2, "Call-tree Profiles").
//
// Layout: struct-of-arrays in preorder. Node 0 is a synthetic root (no method, normally cost 0)
// whose children are the outermost frames, so profiles with several entry points (threads) are
// one tree. Preorder plus subtree sizes make "d is a descendant of a" the interval test
// a < d < a + subtree_size(a), children are found without child lists (first child n + 1, next
// sibling c + subtree_size(c)), and a method's nodes are kept sorted by preorder number.
// About 36 bytes per node, plus 8 per node for each extra metric (metric.h) and for a base column
// of its own (a view's, below).

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/calltree/early_walk.h"
#include "bn/calltree/metadata.h"
#include "bn/calltree/metric.h"
#include "bn/calltree/string_table.h"
#include "bn/calltree/types.h"
#include "bn/calltree/uninitialized_column.h"

namespace bn::calltree {

// Input to CallTree::build: nodes in any order in which every parent comes before its children.
struct NodeTable {
  std::vector<NodeId> parent;    // parent[0] == kNoNode; parent[i] < i for every i > 0
  std::vector<MethodId> method;  // method[0] == kNoMethod; otherwise an id in the string table
  std::vector<Cost> cost;        // self cost of each node
  // Set by a reader that checked each node as it decoded it: every parent before its node (none
  // kNoNode) and every method id below the string table's size. build then skips its own pass
  // over the nodes, a read of 8 bytes per node (6 ms at 10M nodes) on the way to the prompt.
  bool references_checked = false;
  // The closing walk, if a reader did it as it decoded the costs (EarlyWalk): build adopts its
  // columns instead of walking again.
  std::optional<WalkedTable> walked = std::nullopt;
};

class CallTree {
 public:
  // Validates `nodes` (sizes agree, node 0 is the only root, parents come first and method ids
  // are in range, checked node by node unless `nodes.references_checked` says a reader did, no two
  // siblings share a method) and renumbers them in preorder, keeping siblings in table order (a
  // table already in preorder, as files are, is adopted without copying).
  // Throws bn::Error naming the first offending node. `extra_metrics` are metrics 1.. (metric 0
  // is `nodes.cost`, named by metadata.metric/unit): one column per metric, in the node order of
  // `nodes`; their names must be non-empty and differ from each other and from metric 0's, and
  // each metric's costs must add up within 64 bits.
  static CallTree build(NodeTable nodes, StringTable names, Metadata metadata,
                        std::vector<MetricColumn> extra_metrics = {});

  CallTree(CallTree&&) noexcept = default;
  CallTree& operator=(CallTree&&) noexcept = default;

  // Number of nodes including the synthetic root.
  std::size_t node_count() const { return parent_.size(); }
  NodeId parent(NodeId n) const { return parent_[n]; }
  MethodId method(NodeId n) const { return method_[n]; }
  Cost cost(NodeId n) const { return cost_[n]; }
  // Cost of n plus the cost of all its descendants.
  Cost cum_cost(NodeId n) const { return cum_cost_[n]; }
  // Number of nodes in the subtree of n, n included.
  std::uint32_t subtree_size(NodeId n) const { return subtree_size_[n]; }
  // One past the last node of n's subtree in preorder.
  NodeId subtree_end(NodeId n) const { return n + subtree_size_[n]; }
  // Depth below the synthetic root: outermost frames have depth 1. The depths are figured on the
  // first call (one pass, O(nodes)), not when the tree is built: opening a profile need not
  // write them (40 MB of fresh memory at 10M nodes), and most commands never ask.
  std::uint32_t depth(NodeId n) const {
    if (!depths_->figured.load(std::memory_order_acquire)) figure_depths();
    return depths_->of[n];
  }
  bool is_leaf(NodeId n) const { return subtree_size_[n] == 1; }
  // True if d lies strictly below a. O(1).
  bool is_descendant(NodeId d, NodeId a) const { return a < d && d < subtree_end(a); }
  Cost total_cost() const { return cum_cost_[kRootNode]; }

  // Base costs (seed 000 sec. 4). Some frames refine the time of the frame above them instead of
  // being called by it: a view's typed-time pseudo-methods and the refinements below them
  // (views/pseudo_names.h). A tree may mark such methods (with_refining_methods); then the base
  // cost of a frame that does not refine is its own cost plus the cost of every node below it
  // reached through refining frames only, and a refining node below such a frame has base cost
  // 0: its time is that frame's own. A refining node with no other frame above it keeps its own
  // cost. So the base costs still partition the tree's cost (they add up to total_cost()), while
  // cost() and cum_cost() stay as recorded. Without marks (every tree read from a file),
  // base_cost(n) is cost(n), read from the same column through the same pointer.
  Cost base_cost(NodeId n) const { return base_[n]; }
  // Whether method m refines its caller's time (never in a tree without marks).
  bool refines(MethodId m) const { return m < refining_.size() && refining_[m]; }
  // The marks by method id (empty: none).
  const std::vector<bool>& refining_methods() const { return refining_; }
  // The tree with the methods marked in `refining` (by method id; a shorter list leaves the rest
  // unmarked) refining their callers' time, replacing any marks it had, its base costs figured:
  // O(nodes). Throws bn::Error when a base cost does not fit 64 bits.
  CallTree with_refining_methods(std::vector<bool> refining) &&;

  // A hint: n's base cost, cum-cost and subtree size are about to be read. A pass over scattered
  // nodes gives it a few nodes ahead, so their cache misses overlap instead of adding up.
  void prefetch(NodeId n) const {
    __builtin_prefetch(&base_[n]);
    __builtin_prefetch(&cum_cost_[n]);
    __builtin_prefetch(&subtree_size_[n]);
  }

  // Iterates the children of a node in preorder.
  class ChildRange;
  ChildRange children(NodeId n) const;

  const StringTable& names() const { return names_; }
  std::string_view method_name(MethodId m) const { return names_[m]; }
  std::string_view node_name(NodeId n) const;
  std::size_t method_count() const { return names_.size(); }
  std::optional<MethodId> find_method(std::string_view name) const { return names_.find(name); }
  // Nodes labelled with method m, in increasing preorder number; the span stays valid for the
  // life of the tree. The first kScannedMethods methods asked are each found by a scan of the
  // method column (O(nodes), read in order); the next one indexes every node by method (O(nodes)
  // once, a scattered write per node), after which every call is O(1). A first `path` asks one
  // method, and a scan costs a fraction of the index.
  std::span<const NodeId> nodes_of(MethodId m) const;
  static constexpr std::size_t kScannedMethods = 4;

  const Metadata& metadata() const { return metadata_; }

  // Metrics: 0 is the one metadata() names, whose self costs cost() gives; 1.. are the extra
  // ones, in the order the profile lists them.
  std::size_t metric_count() const { return 1 + extra_metrics_.size(); }
  MetricSpec metric_spec(std::size_t metric) const;
  // Self cost of n under `metric` (0: cost(n)).
  Cost metric_cost(std::size_t metric, NodeId n) const {
    return metric == 0 ? cost_[n] : extra_metrics_[metric - 1].cost[n];
  }
  std::span<const MetricColumn> extra_metrics() const { return extra_metrics_; }
  // Sum of the self costs under `metric` (0: total_cost()). O(nodes) for an extra metric.
  Cost metric_total(std::size_t metric) const;
  // Index of the metric called `name`.
  std::optional<std::size_t> find_metric(std::string_view name) const;
  // The tree with `metric` as metric 0: its costs in cost() and cum_cost(), its name and unit in
  // metadata(); the other metrics follow in their order; base costs follow the new metric 0 under
  // the same refining methods. O(nodes). Throws bn::Error for a metric the tree does not have.
  CallTree with_metric(std::size_t metric) &&;
  CallTree with_metric(std::size_t metric) const&;
  // The tree with `column` (a cost per node, in node order) as its last metric, as a metric
  // derived from the others is added (probe_cost.h). O(nodes). Throws bn::Error for a column of
  // another size, a name the tree has, one metric too many, or a cum-cost past 64 bits.
  CallTree with_extra_metric(MetricColumn column) &&;

 private:
  CallTree() = default;
  void accumulate_cum_costs();
  // Points base_ at cost_ (no node folds into another) or at base_cost_, figured from cost_
  // (base_costs.cpp).
  void figure_base_costs();
  // What adopt_preorder's pass found.
  struct PreorderPass {
    bool adopted = false;           // the table was in preorder; the columns are the tree's now
    bool repeated_sibling = false;  // some node has two children labelled alike
    bool cum_costs_summed = false;  // cum_cost_ is complete (not when a cost is negative)
    bool cum_overflow = false;      // with cum_costs_summed: some node's cum-cost is past 64 bits
  };
  PreorderPass adopt_preorder(NodeTable& table, std::size_t method_count);
  std::vector<NodeId> renumber(const NodeTable& table);
  std::pair<NodeId, MethodId> first_repeated_sibling() const;
  // What nodes_of answers from, built on use, not when the tree is built: opening a profile need
  // not wait for it, and a tree that is only read or converted never needs it. Guarded by `lock`
  // until `indexed` is set, so that const calls stay safe from several threads.
  struct MethodLists {
    std::mutex lock;
    std::atomic<bool> indexed{false};
    // Before the index: each method asked so far with its nodes, found by a scan.
    std::vector<std::pair<MethodId, std::vector<NodeId>>> scanned;
    // The index, nodes grouped by method (CSR): nodes of m are nodes[begin[m], begin[m + 1]).
    std::vector<std::uint32_t> begin;
    std::vector<NodeId> nodes;
  };
  std::vector<NodeId> scan_method(MethodId m) const;
  // depth()'s, figured on its first call; guarded like MethodLists.
  struct Depths {
    std::mutex lock;
    std::atomic<bool> figured{false};
    std::vector<std::uint32_t> of;
  };
  void figure_depths() const;
  void index_methods(MethodLists& lists) const;

  std::vector<NodeId> parent_;
  std::vector<MethodId> method_;
  std::vector<Cost> cost_;
  UninitializedColumn<Cost> cum_cost_;
  UninitializedColumn<std::uint32_t> subtree_size_;
  std::unique_ptr<Depths> depths_ = std::make_unique<Depths>();
  std::unique_ptr<MethodLists> method_lists_ = std::make_unique<MethodLists>();
  StringTable names_;
  Metadata metadata_;
  std::vector<MetricColumn> extra_metrics_;
  std::vector<bool> refining_;   // by method id; empty when no method refines
  std::vector<Cost> base_cost_;  // empty when no node's cost moves to the frame above it
  // base_cost_'s data, or cost_'s when base_cost_ is empty: one read either way. Both are vectors,
  // whose buffers move with the tree, so a moved tree's pointer stays valid; whatever replaces
  // cost_ or base_cost_ calls figure_base_costs.
  const Cost* base_ = nullptr;
};

class CallTree::ChildRange {
 public:
  class iterator {
   public:
    using value_type = NodeId;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const CallTree* tree, NodeId n) : tree_(tree), n_(n) {}
    NodeId operator*() const { return n_; }
    iterator& operator++() {
      n_ = tree_->subtree_end(n_);
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const { return n_ == o.n_; }

   private:
    const CallTree* tree_ = nullptr;
    NodeId n_ = 0;
  };
  ChildRange(const CallTree* tree, NodeId first, NodeId end) : tree_(tree), first_(first), end_(end) {}
  iterator begin() const { return {tree_, first_}; }
  iterator end() const { return {tree_, end_}; }
  bool empty() const { return first_ == end_; }

 private:
  const CallTree* tree_;
  NodeId first_;
  NodeId end_;
};

inline CallTree::ChildRange CallTree::children(NodeId n) const { return ChildRange(this, n + 1, subtree_end(n)); }

}  // namespace bn::calltree
