// Zooming's walk down a chain in the tree backend (bn/iface/extension_walk.h). While no two
// paths of the summary reached share a node (and, at the top, no root's caller lies on another
// path), an extension's cum and base are sums over its paths, each path's own costs plus the node
// one step beyond (measure_extension's first case), except that an extended path inside another
// (a recursion's later call, in an earlier call's final subtree) counts only its base: all it
// covers, the other covers. The walk keeps those sums per path and adds one node to each path a
// step, so a step costs its P paths and L neighbours, O((P + L) log P), never the length reached,
// and builds nothing. A step whose paths share nodes (a recursion's repeated calls) is measured as
// before, its summary built. Before its first step the walk is the start summary, measured by
// extension_amounts (which keeps it for the zoom step that follows).
#include <algorithm>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/tree_profile.h"

namespace bn::calltree {

using iface::Amount;

namespace {

// The lists a step sorts (paths by root, finals, subtrees) are mostly in order already when the
// paths nest in a recursion, as their calls do: one pass then.
template <typename T, typename Less>
void sort_unless_sorted(std::vector<T>& v, Less less) {
  if (!std::is_sorted(v.begin(), v.end(), less)) std::sort(v.begin(), v.end(), less);
}

}  // namespace

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
      const auto first = e;
      const MethodId m = e->method;
      Amount cum = 0, base = 0;
      for (; e != nodes.end() && e->method == m; ++e) {
        cum += alone(*e);
        base += paths_[e->path].base + e->base;
      }
      out.push_back({tree.method_name(m), cum, base, m});
      if (roots_nest_ && e - first > 1) count_covered_once({first, e}, out.back());
    }
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
    // Paths apart before a step down share a node after it only where a new final is a root.
    const bool apart_below = moved_ && measurable_ && end_ == iface::End::bottom;
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
      sort_unless_sorted(paths_, [](const Path& a, const Path& b) { return a.root < b.root; });
    roots_nest_ = roots_nest();
    measurable_ = !roots_nest_ || (apart_below ? no_final_is_a_root() : paths_apart());
  }

  iface::Summary summary() override { return build(); }

 private:
  // The subtrees a sweep in preorder has opened and not yet left, innermost last: subtrees of a
  // tree nest or are apart, so a stack keeps them. T has an `end` (its subtree is [first, end)).
  template <typename T>
  class OpenSubtrees {
   public:
    void clear() { open_.clear(); }
    // Opens t, whose subtree starts at `first` (at or after every one opened before).
    void open(const T& t, NodeId first) {
      leave_before(first);
      open_.push_back(t);
    }
    // The innermost open subtree that holds `at` (at or after every start opened), or null.
    const T* innermost_holding(NodeId at) {
      leave_before(at);
      return open_.empty() ? nullptr : &open_.back();
    }

   private:
    void leave_before(NodeId at) {
      while (!open_.empty() && open_.back().end <= at) open_.pop_back();
    }
    std::vector<T> open_;
  };

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

  // Whether sums measure the extensions of the paths reached: false if two paths share a node
  // or, at the top, a root's caller is on another path. Otherwise two extended paths (the path,
  // the node beyond it, the final's subtree) are apart or one holds the other, which
  // count_covered_once finds. Path i passes through node x when its final lies in x's subtree and
  // its root is x or above it (a smaller preorder number, both being ancestors of the final).
  // So each path j asks whether a final in the subtree of x = its root (its root's caller at the
  // top) has a root below the threshold x (x + 1 at the top, where the caller may be a root). The
  // subtrees asked about nest or are apart, so one sweep of the finals in preorder with a stack
  // of the subtrees open answers all, each final asking the innermost only: the thresholds grow
  // inwards, and a path through an outer x passes through every inner x its final lies under.
  // Asked only when some root lies below another (else no path can pass through another's root).
  bool paths_apart() {
    const CallTree& tree = profile_.tree_;
    const bool top = end_ == iface::End::top;
    finals_.clear();
    asked_.clear();
    for (const Path& p : paths_) {
      finals_.emplace_back(p.final_node, p.root);
      const NodeId x = top ? tree.parent(p.root) : p.root;
      asked_.push_back({x, tree.subtree_end(x), top ? x + 1 : x});
    }
    sort_unless_sorted(finals_, std::less<>());
    sort_unless_sorted(asked_, [](const Asked& a, const Asked& b) { return a.first < b.first; });
    open_asked_.clear();
    auto next = asked_.begin();
    for (const auto& [final_node, root] : finals_) {
      for (; next != asked_.end() && next->first <= final_node; ++next) open_asked_.open(*next, next->first);
      const Asked* innermost = open_asked_.innermost_holding(final_node);
      if (innermost != nullptr && root < innermost->threshold) return false;
    }
    return true;
  }

  // Whether a root lies below another (in root order, inside an earlier root's subtree).
  bool roots_nest() const {
    NodeId reach = 0;  // the end of the subtrees of the roots so far
    for (const Path& p : paths_) {
      if (p.root < reach) return true;
      reach = std::max(reach, profile_.tree_.subtree_end(p.root));
    }
    return false;
  }

  // After a step down from paths apart: whether no path's new final is another path's root. The
  // finals, sorted (nested calls list them in order already), are merged with the roots.
  bool no_final_is_a_root() {
    new_finals_.clear();
    for (const Path& p : paths_) new_finals_.push_back(p.final_node);
    sort_unless_sorted(new_finals_, std::less<>());
    auto root = paths_.begin();
    for (const NodeId f : new_finals_) {
      while (root != paths_.end() && root->root < f) ++root;
      if (root == paths_.end()) return true;
      if (root->root == f) return false;
    }
    return true;
  }

  // Takes out of the extension `ext` (the neighbours `group` of one method) what a path inside
  // another path's extension counted again. Path j's extension lies inside path i's when j's node
  // beyond (top) lies in i's final subtree, or j's root (bottom) in the subtree of i's node
  // beyond: the subtrees are nested or apart, so one sweep in preorder with a stack of the open
  // subtrees finds them. At the bottom j's root may *be* i's node beyond (a recursion's next
  // call): then both count that node's base, and it is taken out once.
  void count_covered_once(std::span<const ExtensionNode> group, iface::ExtensionAmounts& ext) {
    const CallTree& tree = profile_.tree_;
    const bool top = end_ == iface::End::top;
    holding_.clear();
    starts_.clear();
    for (const ExtensionNode& e : group) {
      const NodeId holds = top ? paths_[e.path].final_node : e.node;
      holding_.push_back({holds, tree.subtree_end(holds)});
      starts_.emplace_back(top ? e.node : paths_[e.path].root, &e);
    }
    sort_unless_sorted(holding_, [](const Subtree& a, const Subtree& b) { return a.first < b.first; });
    sort_unless_sorted(starts_, std::less<>());
    open_holding_.clear();
    auto next = holding_.begin();
    for (const auto& [at, e] : starts_) {
      for (; next != holding_.end() && next->first <= at; ++next) {
        if (next->first == at) ext.base -= tree.base_cost(at);
        open_holding_.open(*next, next->first);
      }
      if (open_holding_.innermost_holding(at) != nullptr) ext.cum -= alone(*e);
    }
  }

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
  bool roots_nest_ = false;  // a root reached lies below another
  // Scratch of paths_apart and count_covered_once, kept between steps.
  struct Asked {
    NodeId first, end;  // the subtree asked about
    NodeId threshold;   // a path through `first` whose root lies below this shares with the asker
  };
  struct Subtree {
    NodeId first, end;
  };
  std::vector<std::pair<NodeId, NodeId>> finals_;  // (final, root)
  std::vector<Asked> asked_;
  OpenSubtrees<Asked> open_asked_;
  std::vector<Subtree> holding_;  // the subtrees holding extensions
  OpenSubtrees<Subtree> open_holding_;
  std::vector<std::pair<NodeId, const ExtensionNode*>> starts_;
  std::vector<NodeId> new_finals_;
};

std::unique_ptr<iface::ExtensionWalk> TreeProfile::extension_walk(iface::Summary s, iface::End end) {
  if (is_pattern(s)) return iface::Profile::extension_walk(s, end);
  return std::make_unique<ChainWalk>(*this, s, end);
}

}  // namespace bn::calltree
