// TreeProfile's running union over extensions of one summary (seed 004 sec. 2.2 measures,
// sec. 2.3 zooming): total_cum_of of the extensions added so far, kept up to date as each is
// added, without building any as a summary. An extension is a group of paths of the summary,
// each lengthened by one node. Isolated paths (tree_profile_isolation.cpp) share nothing with
// any other, so they are counted by sums; the others are kept as node sets.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>

#include "bn/calltree/tree_profile.h"

namespace bn::calltree {

class TreeProfile::RunningExtensionUnion final : public iface::ExtensionUnion {
 public:
  RunningExtensionUnion(TreeProfile& profile, iface::Summary s, iface::End end)
      : iface::ExtensionUnion(profile, s, end),
        profile_(profile),
        view_(profile.view(s)),
        neighbourhood_(profile.neighbourhood(s, end)),
        base_counted_(end == iface::End::top ? 0 : view_.roots.size(), false),
        shared_(profile.tree_) {
    profile.isolation(*neighbourhood_);
  }

  // e.tag is the method id extension_amounts put there; checked against the name.
  void add(const iface::ExtensionAmounts& e) override {
    const MethodId m = e.tag;
    const auto group = m < profile_.method_count_ && profile_.tree_.method_name(m) == e.method
                           ? extension_group(*neighbourhood_, m)
                           : std::span<const ExtensionNode>{};
    if (group.empty()) reject(e.method);
    if (!added_.insert(m).second) return;
    for (const ExtensionNode& node : group) add_path(node);
  }
  iface::Amount total() override { return isolated_ + shared_.total(); }

  // All extensions together cover part of what cum(s) covers, plus (top) the new roots. An
  // isolated path that no extension goes through (a final without children, a root without a
  // parent) shares nothing with the others, so its cum alone is left out of that part.
  std::optional<iface::Amount> bound_of_all() override {
    const Neighbourhood& n = *neighbourhood_;
    iface::Amount bound = profile_.cum_of(n.of);
    std::vector<bool> extended(view_.roots.size(), false);
    for (const ExtensionNode& e : n.nodes) {
      extended[e.path] = true;
      if (n.end == iface::End::top) bound += e.adds;
    }
    for (std::size_t i = 0; i < extended.size(); ++i)
      if (!extended[i] && n.isolated[i]) bound -= n.facts->alone[i];
    return bound;
  }

 private:
  // The cum measure of a union of subtrees and single nodes: the cum-costs of the outermost
  // subtrees plus the costs of the single nodes outside them, in any order of adding.
  class NodeUnion {
   public:
    explicit NodeUnion(const CallTree& tree) : tree_(tree) {}

    // A subtree outside every kept one becomes a kept one; the kept subtrees and nodes inside it
    // are then counted by its cum-cost instead.
    void add_subtree(NodeId n) {
      if (covered(n)) return;
      const NodeId end = tree_.subtree_end(n);
      for (auto it = subtrees_.lower_bound(n); it != subtrees_.end() && it->first < end; it = subtrees_.erase(it))
        total_ -= tree_.cum_cost(it->first);
      for (auto it = nodes_.lower_bound(n); it != nodes_.end() && *it < end; it = nodes_.erase(it))
        total_ -= tree_.cost(*it);
      subtrees_.emplace(n, end);
      total_ += tree_.cum_cost(n);
    }
    void add_node(NodeId n) {
      if (covered(n) || !nodes_.insert(n).second) return;
      total_ += tree_.cost(n);
    }
    iface::Amount total() const { return total_; }

   private:
    // Whether n lies in a kept subtree [top, subtree_end(top)).
    bool covered(NodeId n) const {
      auto after = subtrees_.upper_bound(n);
      return after != subtrees_.begin() && n < std::prev(after)->second;
    }

    const CallTree& tree_;
    std::map<NodeId, NodeId> subtrees_;  // outermost kept node -> its subtree_end
    std::set<NodeId> nodes_;             // single nodes outside every kept subtree
    iface::Amount total_ = 0;
  };

  // What the extension through one path covers: the path's nodes, then the new root and the
  // final's subtree (top), or the new final's subtree (bottom; the path may already be counted
  // through another bottom extension, the subtrees of different children never overlap).
  void add_path(const ExtensionNode& e) {
    const Neighbourhood& n = *neighbourhood_;
    if (n.isolated[e.path]) {
      isolated_ += isolated_cum(n, e);
      if (n.end == iface::End::bottom) {
        // Another child of the same final may have brought the path's own nodes already.
        if (base_counted_[e.path]) isolated_ -= n.facts->own[e.path];
        base_counted_[e.path] = true;
      }
      return;
    }
    const CallTree& tree = profile_.tree_;
    const NodeId f = view_.finals[e.path];
    NodeId x = f;
    for (std::size_t j = 0; j < view_.calls.size(); ++j, x = tree.parent(x)) shared_.add_node(x);
    if (n.end == iface::End::top) {
      shared_.add_node(e.node);
      shared_.add_subtree(f);
    } else {
      shared_.add_subtree(e.node);
    }
  }

  TreeProfile& profile_;
  View view_;
  std::shared_ptr<Neighbourhood> neighbourhood_;  // kept: the profile's cache may move on
  std::vector<bool> base_counted_;                // bottom: the path's own nodes are in isolated_
  std::unordered_set<MethodId> added_;
  iface::Amount isolated_ = 0;  // what the isolated paths cover
  NodeUnion shared_;            // what the other paths cover
};

std::unique_ptr<iface::ExtensionUnion> TreeProfile::extension_union(iface::Summary s, iface::End end) {
  if (is_pattern(s)) return iface::Profile::extension_union(s, end);
  return std::make_unique<RunningExtensionUnion>(*this, s, end);
}

}  // namespace bn::calltree
