// Running unions over the refinements through a gap (seed 000 sec. 2): the gap extensions
// s;..;x and the upward split's P1;..;x;P2. What each counts is the subtrees of its outermost
// nodes where it first holds (the tallies that measure them, outermost_tally.h), so a union of
// several is a union of subtrees: kept as disjoint stretches of the preorder, each the subtree of
// one node, a node inside a kept stretch adds nothing and a node above kept ones replaces them.
// Zooming on `refine below` unites 95% of 10^5 of them; built, each was a pass over the tree and
// total_cum_of of a prefix another pass per member.
#include <algorithm>
#include <map>
#include <string>
#include <unordered_set>

#include "bn/calltree/tree_profile.h"
#include "outermost_tally.h"

namespace bn::calltree {

using iface::Amount;

class TreeProfile::SubtreeUnion final : public iface::ExtensionUnion {
 public:
  // Over the refinements whose outermost nodes `tally` kept, each named by its method.
  SubtreeUnion(TreeProfile& profile, iface::Summary s, std::string kind, OutermostTally& tally)
      : iface::ExtensionUnion(profile, s, std::move(kind)), tree_(profile.tree_) {
    nodes_ = std::move(tally.outermost());
    // By method, each method's nodes in preorder.
    std::stable_sort(nodes_.begin(), nodes_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }

  // By name: a split's candidates are listed from its summaries, without the backend's tag.
  void add(const iface::ExtensionAmounts& e) override {
    const std::optional<MethodId> m = tree_.find_method(e.method);
    const auto [first, last] =
        std::equal_range(nodes_.begin(), nodes_.end(), std::pair<MethodId, NodeId>{m.value_or(0), 0},
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!m || first == last) reject(e.method);
    if (!added_.insert(*m).second) return;
    for (auto it = first; it != last; ++it) unite(it->second);
  }

  Amount total() override { return total_; }

 private:
  void unite(NodeId n) {
    auto next = kept_.upper_bound(n);                                  // the first stretch starting after n
    if (next != kept_.begin() && n < std::prev(next)->second) return;  // inside a kept subtree
    const NodeId end = tree_.subtree_end(n);
    while (next != kept_.end() && next->first < end) {  // subtrees below n: inside it
      total_ -= tree_.cum_cost(next->first);
      next = kept_.erase(next);
    }
    kept_.emplace_hint(next, n, end);
    total_ += tree_.cum_cost(n);
  }

  const CallTree& tree_;
  std::vector<std::pair<MethodId, NodeId>> nodes_;  // every refinement's outermost nodes
  std::unordered_set<MethodId> added_;
  std::map<NodeId, NodeId> kept_;  // disjoint subtrees, start -> end
  Amount total_ = 0;
};

std::unique_ptr<iface::ExtensionUnion> TreeProfile::gap_extension_union(iface::Summary s) {
  OutermostTally tally(tree_, true);
  tally_gap_extensions(s, tally);
  return std::make_unique<SubtreeUnion>(*this, s, "gap extension", tally);
}

std::unique_ptr<iface::ExtensionUnion> TreeProfile::split_union(iface::Summary s, std::size_t gap) {
  OutermostTally tally(tree_, true);
  if (!tally_upward_splits(pattern_of(s), gap, tally)) return iface::Profile::split_union(s, gap);
  return std::make_unique<SubtreeUnion>(*this, s, "caller to split at", tally);
}

}  // namespace bn::calltree
