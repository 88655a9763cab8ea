// Zooming's walk down a chain in the tree backend (bn/iface/extension_walk.h). While no two
// paths of the summary reached share a node (and, at the top, no root's caller lies on another
// path), an extension's cum and base are sums over its paths, each path's own costs plus the node
// one step beyond (measure_extension's first case), except that a path inside another's final
// subtree counts only its base: all it covers is inside that subtree. The walk keeps those sums
// per path and adds one node to each path a step, so such a step costs the paths and their
// neighbours, never the length reached, and builds nothing. A step whose paths share nodes (a
// recursion's repeated calls) is measured as before, its summary built. Before its first step the
// walk is the start summary, measured by extension_amounts (which keeps it for the zoom step that
// follows).
#include <algorithm>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/tree_profile.h"

namespace bn::calltree {

using iface::Amount;

class TreeProfile::ChainWalk final : public iface::ExtensionWalk {
 public:
  ChainWalk(TreeProfile& profile, iface::Summary s, iface::End end) : profile_(profile), start_(s), end_(end) {}

  std::vector<iface::ExtensionAmounts> amounts() override {
    if (!moved_) return profile_.extension_amounts(start_, end_);
    if (!measurable_) return profile_.extension_amounts(build(), end_);
    const CallTree& tree = profile_.tree_;
    std::vector<iface::ExtensionAmounts> out;  // one per method, in method order for now
    const std::vector<ExtensionNode>& nodes = neighbours();
    for (auto e = nodes.begin(); e != nodes.end();) {
      const MethodId m = e->method;
      Amount cum = 0, base = 0;
      for (; e != nodes.end() && e->method == m; ++e) {
        cum += alone(*e);
        base += paths_[e->path].base + e->base;
      }
      out.push_back({tree.method_name(m), cum, base, m});
    }
    if (!count_nested_once(out)) return profile_.extension_amounts(build(), end_);
    const auto& rank = profile_.name_rank();
    std::sort(out.begin(), out.end(), [&](const iface::ExtensionAmounts& a, const iface::ExtensionAmounts& b) {
      return rank[a.tag] < rank[b.tag];
    });
    return out;
  }

  void extend(std::string_view m) override {
    const std::optional<MethodId> id = profile_.tree_.find_method(m);
    const std::span<const ExtensionNode> group = id ? group_of(*id) : std::span<const ExtensionNode>();
    if (group.empty())
      throw Error("'" + std::string(m) + "' is not a " + iface::to_string(end_) + " extension of the summary");
    if (!moved_) start_paths(group);
    std::vector<Path> extended;
    extended.reserve(group.size());
    for (const ExtensionNode& e : group) {
      Path p = paths_[e.path];
      p.own += profile_.tree_.cost(e.node);
      p.base += e.base;
      (end_ == iface::End::top ? p.root : p.final_node) = e.node;
      extended.push_back(p);
    }
    paths_ = std::move(extended);
    calls_.push_back(*id);
    moved_ = true;
    listed_for_ = false;
    // At the bottom the roots stay, in order; at the top they are new.
    if (end_ == iface::End::top)
      std::sort(paths_.begin(), paths_.end(), [](const Path& a, const Path& b) { return a.root < b.root; });
    measurable_ = find_nested();
  }

  iface::Summary summary() override { return build(); }

 private:
  struct Path {
    NodeId root, final_node;
    Amount own, base;  // Σ cost and Σ base_cost over the path's nodes
  };

  // The extension nodes labelled m of the summary reached, grouped by path.
  std::span<const ExtensionNode> group_of(MethodId m) {
    if (!moved_) return TreeProfile::extension_group(*profile_.neighbourhood(start_, end_), m);
    const std::vector<ExtensionNode>& nodes = neighbours();
    const auto first = std::lower_bound(nodes.begin(), nodes.end(), ExtensionNode{m, 0, 0});
    const auto last = std::find_if(first, nodes.end(), [&](const ExtensionNode& e) { return e.method != m; });
    return {first, last};
  }

  // The start's sequence and the sums of the paths the first step continues, indexed as the
  // start's: the path facts extension_amounts found for the start (kept for the last summary).
  void start_paths(std::span<const ExtensionNode> group) {
    const View v = profile_.view(start_);
    const std::shared_ptr<const PathFacts> facts = profile_.path_facts(start_);
    calls_.assign(v.calls.begin(), v.calls.end());
    if (end_ == iface::End::top) std::reverse(calls_.begin(), calls_.end());
    paths_.assign(v.roots.size(), Path{});
    for (const ExtensionNode& e : group)
      paths_[e.path] = {v.roots[e.path], v.finals[e.path], facts->own[e.path], facts->base[e.path]};
  }

  // What an extension through e's path counts when nothing else of the extension counts it: the
  // path's nodes and e's node, and the subtree of the final (the path's at the top, e's node at
  // the bottom).
  Amount alone(const ExtensionNode& e) const {
    const Path& p = paths_[e.path];
    const CallTree& tree = profile_.tree_;
    const Amount path_cum =
        end_ == iface::End::top ? p.own - tree.cost(p.final_node) + tree.cum_cost(p.final_node) : p.own;
    return path_cum + e.adds;
  }

  // Lists in nested_ the paths j whose root lies in the final subtree of another path i (their
  // nodes and subtree are inside it: what j counts, i counts); false if two paths share a node
  // or, at the top, a root's caller is on another path, where sums do not measure. Each test needs
  // a root inside another root's subtree (a shared node is the lower root on the higher path), so
  // only nested pairs of roots are tested, found with a stack of the enclosing roots; past
  // kNestedPairs of them (deep recursion nests every root in each one above it) the step is
  // measured as built.
  bool find_nested() {
    static constexpr std::size_t kNestedPairs = 64;
    const CallTree& tree = profile_.tree_;
    nested_.clear();
    std::vector<std::uint32_t> enclosing;
    std::size_t pairs = 0;
    for (std::uint32_t j = 0; j < paths_.size(); ++j) {
      const NodeId root = paths_[j].root;
      while (!enclosing.empty() && !inside(root, paths_[enclosing.back()].root)) enclosing.pop_back();
      for (const std::uint32_t i : enclosing) {
        if (++pairs > kNestedPairs) return false;
        const NodeId final_node = paths_[i].final_node;
        if (inside(final_node, root)) return false;  // the root is on the path
        if (end_ == iface::End::top && inside(final_node, tree.parent(root))) return false;
        if (inside(root, final_node)) nested_.emplace_back(i, j);
      }
      enclosing.push_back(j);
    }
    return true;
  }

  // Takes out of each extension in `out` (one per method, in method order) what a path nested in
  // another path of the same extension counted again. At the top the new roots stay inside the
  // enclosing final subtrees. At the bottom a nested root stays inside only below the enclosing
  // path's new final; if it is that final, the two paths share it, and false is returned.
  bool count_nested_once(std::vector<iface::ExtensionAmounts>& out) const {
    const std::vector<ExtensionNode>& nodes = grouped_;
    const auto node_of = [&](MethodId m, std::uint32_t path) -> const ExtensionNode* {
      const auto it = std::lower_bound(nodes.begin(), nodes.end(), ExtensionNode{m, path, 0});
      return it != nodes.end() && it->method == m && it->path == path ? &*it : nullptr;
    };
    std::vector<std::pair<MethodId, std::uint32_t>> taken;  // (extension, path) counted once already
    for (const auto& [i, j] : nested_) {
      for (const ExtensionNode& outer : listed_of(i)) {
        const ExtensionNode* inner = node_of(outer.method, j);
        if (inner == nullptr) continue;  // not both in this extension
        if (end_ == iface::End::bottom) {
          if (paths_[j].root == outer.node) return false;
          if (!inside(paths_[j].root, outer.node)) continue;
        }
        if (std::find(taken.begin(), taken.end(), std::pair(outer.method, j)) != taken.end()) continue;
        taken.emplace_back(outer.method, j);
        const auto ext = std::lower_bound(out.begin(), out.end(), outer.method,
                                          [](const iface::ExtensionAmounts& a, MethodId m) { return a.tag < m; });
        ext->cum -= alone(*inner);
      }
    }
    return true;
  }

  // The listed nodes one step beyond path i (in path order).
  std::span<const ExtensionNode> listed_of(std::uint32_t i) const {
    const auto first = std::lower_bound(listed_.begin(), listed_.end(), i,
                                        [](const ExtensionNode& e, std::uint32_t path) { return e.path < path; });
    const auto last = std::find_if(first, listed_.end(), [&](const ExtensionNode& e) { return e.path != i; });
    return {first, last};
  }

  bool inside(NodeId n, NodeId top) const { return top <= n && n < profile_.tree_.subtree_end(top); }

  // The nodes one step beyond the paths, grouped by method, listed once per step.
  const std::vector<ExtensionNode>& neighbours() {
    if (listed_for_) return grouped_;
    const CallTree& tree = profile_.tree_;
    listed_.clear();
    for (std::uint32_t i = 0; i < paths_.size(); ++i) {
      if (end_ == iface::End::top) {
        if (const NodeId p = tree.parent(paths_[i].root); p != kRootNode)  // the root is no method
          listed_.push_back({tree.method(p), i, p, tree.base_cost(p), tree.cost(p)});
      } else {
        for (const NodeId c : tree.children(paths_[i].final_node))
          listed_.push_back({tree.method(c), i, c, tree.base_cost(c), tree.cum_cost(c)});
      }
    }
    profile_.group_by_method(listed_, grouped_);
    listed_for_ = true;
    return grouped_;
  }

  // The summary reached, interned (or found, when built before).
  iface::Summary build() {
    if (!moved_) return start_;
    std::vector<MethodId> calls(calls_);
    if (end_ == iface::End::top) std::reverse(calls.begin(), calls.end());
    if (const auto known = profile_.find(calls)) return *known;
    std::vector<RootFinal> pairs;
    pairs.reserve(paths_.size());
    for (const Path& p : paths_) pairs.emplace_back(p.root, p.final_node);
    return *profile_.store(std::move(calls), std::move(pairs));
  }

  TreeProfile& profile_;
  iface::Summary start_;
  iface::End end_;
  bool moved_ = false;
  // Once moved:
  std::vector<MethodId> calls_;  // the sequence reached, from the end it grows at inwards
  std::vector<Path> paths_;      // by root
  std::vector<ExtensionNode> listed_, grouped_;
  bool listed_for_ = false;  // grouped_ holds the neighbours of the summary reached
  bool measurable_ = false;  // no two paths reached share a node (nor, at the top, a caller)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> nested_;  // (i, j): path j inside i's final subtree
};

std::unique_ptr<iface::ExtensionWalk> TreeProfile::extension_walk(iface::Summary s, iface::End end) {
  if (is_pattern(s)) return iface::Profile::extension_walk(s, end);
  return std::make_unique<ChainWalk>(*this, s, end);
}

}  // namespace bn::calltree
