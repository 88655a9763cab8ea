// TreeProfile's running total_cum_of (seed 004 sec. 2.2): the same measure as total_cum_of —
// the cum-costs of the outermost final nodes of the union plus the costs of the exposed along
// nodes outside their subtrees — kept up to date as summaries are added, so zooming's scan over
// prefixes of 10^5 candidates (sec. 2.3) costs one pass over their nodes instead of one union
// per prefix.
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <span>

#include "bn/calltree/tree_profile.h"

namespace bn::calltree {

class TreeProfile::RunningUnion final : public iface::CumUnion {
 public:
  explicit RunningUnion(TreeProfile& profile) : iface::CumUnion(profile), profile_(profile) {}

  void add(std::span<const iface::Summary> S) override {
    // Zooming adds its skipped prefix (thousands of summaries) first: one sweep over their
    // sorted nodes, as total_cum_of does, instead of a search per node.
    if (tops_.empty() && exposed_.empty() && S.size() > 1) {
      const auto [tops, outside] = profile_.cum_union_nodes(S);
      for (NodeId n : tops) {
        tops_.emplace_hint(tops_.end(), n, profile_.tree_.subtree_end(n));
        total_ += profile_.tree_.cum_cost(n);
      }
      for (NodeId n : outside) {
        exposed_.insert(exposed_.end(), n);
        total_ += profile_.tree_.cost(n);
      }
      return;
    }
    for (iface::Summary s : S) {
      for (NodeId n : profile_.top_finals(s)) add_top(n);
      if (!profile_.is_method_summary(s))
        for (NodeId n : profile_.sequence(s).exposed) add_exposed(n);
    }
  }
  iface::Amount total() override { return total_; }

 private:
  // Whether n lies in the subtree of a kept top (a subtree is [top, subtree_end(top))).
  bool covered(NodeId n) const {
    auto after = tops_.upper_bound(n);
    return after != tops_.begin() && n < std::prev(after)->second;
  }
  // A final node outside every kept subtree becomes a top; the tops and exposed nodes inside
  // its subtree are then counted by its cum-cost instead.
  void add_top(NodeId n) {
    if (covered(n)) return;
    const CallTree& tree = profile_.tree_;
    const NodeId end = tree.subtree_end(n);
    for (auto it = tops_.lower_bound(n); it != tops_.end() && it->first < end; it = tops_.erase(it))
      total_ -= tree.cum_cost(it->first);
    for (auto it = exposed_.lower_bound(n); it != exposed_.end() && *it < end; it = exposed_.erase(it))
      total_ -= tree.cost(*it);
    tops_.emplace(n, end);
    total_ += tree.cum_cost(n);
  }
  void add_exposed(NodeId n) {
    if (covered(n) || !exposed_.insert(n).second) return;
    total_ += profile_.tree_.cost(n);
  }

  TreeProfile& profile_;
  std::map<NodeId, NodeId> tops_;  // outermost final node -> its subtree_end
  std::set<NodeId> exposed_;       // exposed along nodes outside every kept subtree
  iface::Amount total_ = 0;
};

std::unique_ptr<iface::CumUnion> TreeProfile::cum_union() { return std::make_unique<RunningUnion>(*this); }

}  // namespace bn::calltree
