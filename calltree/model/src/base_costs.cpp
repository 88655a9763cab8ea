// Base costs of a tree whose refining methods are marked (call_tree.h): the cost of each node that
// refines the time of the frame above it moves to the base of that frame (seed 000 sec. 4: the
// typed-time pseudo-methods split the leaf's time by kind; they are not calls).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/call_tree.h"

namespace bn::calltree {

CallTree CallTree::with_refining_methods(std::vector<bool> refining) && {
  if (std::find(refining.begin(), refining.end(), true) == refining.end()) refining.clear();
  refining_ = std::move(refining);
  figure_base_costs();
  return std::move(*this);
}

void CallTree::figure_base_costs() {
  base_cost_ = {};
  base_ = cost_.data();
  if (refining_.empty()) return;
  const std::size_t n = node_count();
  // A node folds into the frame above it when it refines and that frame is one that does not
  // (its owner) or folds itself; a refining node with only refining frames above it, up to the
  // root, keeps its cost. Preorder puts every parent before its children.
  std::vector<char> folds(n, 0);
  bool any = false;
  for (std::size_t i = 1; i < n; ++i) {
    const NodeId p = parent_[i];
    const bool fold = refines(method_[i]) && p != kRootNode && (folds[p] != 0 || !refines(method_[p]));
    folds[i] = fold ? 1 : 0;
    any |= fold;
  }
  // A tree whose refining methods label no node below another frame (a view of running time
  // only) needs no column of its own.
  if (!any) return;
  // Reverse preorder: a folding node's base holds everything folded into it before it is added
  // to its parent's.
  base_cost_ = cost_;
  for (std::size_t i = n - 1; i > 0; --i) {
    if (!folds[i]) continue;
    Cost& above = base_cost_[parent_[i]];
    if (__builtin_add_overflow(above, base_cost_[i], &above))
      throw Error("invalid call tree: the base cost of node " + std::to_string(parent_[i]) + " does not fit 64 bits");
    base_cost_[i] = 0;
  }
  base_ = base_cost_.data();
}

}  // namespace bn::calltree
