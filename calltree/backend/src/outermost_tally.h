#pragma once
// Per method, the cum and base of a summary matched at some of its nodes (the gap extensions
// s;..;x, seed 000 sec. 2, and the callers of an upward split).

#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/iface/extension_amounts.h"

namespace bn::calltree {

// Per method x, the cum and base of a summary matched at some nodes of x: base counts every
// such node, cum the subtrees of the outermost ones. Nodes come in preorder, so the counted
// subtrees of one x are nested or disjoint and a node lies below a counted one iff it comes
// before the end of the last counted one's subtree: no stack needed. Sums of node costs, which
// the tree's own int64 totals bound. The first node of x met is always counted, so a zero
// counted_until[x] also means x was not met yet.
class OutermostTally {
 public:
  // With `keep`, the counted nodes are listed too (outermost()).
  explicit OutermostTally(const CallTree& tree, bool keep = false)
      : tree_(tree),
        keep_(keep),
        cum_(tree.method_count(), 0),
        base_(tree.method_count(), 0),
        counted_until_(tree.method_count(), 0) {}

  void add(NodeId n) { add(tree_.method(n), n); }

  void add(MethodId x, NodeId n) {
    base_[x] += tree_.base_cost(n);
    if (n < counted_until_[x]) return;
    if (counted_until_[x] == 0) found_.push_back(x);
    cum_[x] += tree_.cum_cost(n);
    counted_until_[x] = tree_.subtree_end(n);
    if (keep_) outermost_.emplace_back(x, n);
  }

  std::vector<iface::ExtensionAmounts> amounts() const {
    std::vector<iface::ExtensionAmounts> out;
    out.reserve(found_.size());
    for (const MethodId x : found_) out.push_back({tree_.method_name(x), cum_[x], base_[x], x});
    return out;
  }

  // The counted nodes with their method, in the order added; only when kept.
  std::vector<std::pair<MethodId, NodeId>>& outermost() { return outermost_; }

 private:
  const CallTree& tree_;
  bool keep_;
  std::vector<Cost> cum_, base_;
  std::vector<NodeId> counted_until_;
  std::vector<MethodId> found_;
  std::vector<std::pair<MethodId, NodeId>> outermost_;
};

}  // namespace bn::calltree
