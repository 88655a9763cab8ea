// Summary construction of the tree backend (seed 004 sec. 2.2): following call sequences,
// extensions, extend and trim. Roots are always ALL nodes where a sequence starts: a shorter
// sequence can start at nodes where the longer one does not.
#include <algorithm>
#include <bit>

#include "bn/calltree/tree_profile.h"
#include "node_sweep.h"

namespace bn::calltree {

using iface::Summary;

const NodeId* TreeProfile::child_in(NodeId n, std::span<const NodeId> nodes) const {
  // The listed nodes inside n's subtree are a contiguous run. The child is the one at
  // depth(n) + 1; a deeper node tells which child's subtree to skip, so a list with no node
  // in n's subtree, or with the child first, costs one binary search, not a scan of children.
  const NodeId* last = nodes.data() + nodes.size();
  const NodeId end = tree_.subtree_end(n);
  const std::uint32_t child_depth = tree_.depth(n) + 1;
  const NodeId* at = std::upper_bound(nodes.data(), last, n);
  while (at != last && *at < end) {
    if (tree_.depth(*at) == child_depth) return at;
    NodeId child = *at;
    while (tree_.depth(child) > child_depth) child = tree_.parent(child);
    at = sweep::gallop(at + 1, last, tree_.subtree_end(child));
  }
  return nullptr;
}

std::optional<Summary> TreeProfile::extend_top(Summary s, std::string_view name) {
  if (is_pattern(s)) return pattern_summary(iface::extended(pattern_record(s).pattern, iface::End::top, name));
  const View v = view(s);
  // A method that labels no node extends nothing: no path is found for it below.
  const auto m = tree_.find_method(name);
  if (!m) return std::nullopt;
  std::vector<MethodId> calls;
  calls.reserve(v.calls.size() + 1);
  calls.push_back(*m);
  calls.insert(calls.end(), v.calls.begin(), v.calls.end());
  if (auto known = find(calls)) return known;
  // Every node where m :: calls starts is a parent of a node where calls starts, and roots of
  // one sequence never share a parent (siblings differ in method), so this loses nothing.
  // Walk whichever side is smaller: the roots, or the nodes of m (a rare caller of a common
  // summary is found without touching all its roots). The nodes of m are asked only then: zooming
  // extends by many methods, each from the listed extensions.
  std::vector<RootFinal> paths;
  std::span<const NodeId> callers;
  if (const auto listed = cached_extensions(s, *m, iface::End::top)) {
    for (const ExtensionNode& e : *listed) paths.emplace_back(e.node, v.finals[e.path]);
  } else if (callers = tree_.nodes_of(*m); callers.size() * std::bit_width(v.roots.size()) < v.roots.size()) {
    for (NodeId p : callers)
      if (const NodeId* r = child_in(p, v.roots))
        paths.emplace_back(p, v.finals[static_cast<std::size_t>(r - v.roots.data())]);
  } else {
    for (std::size_t i = 0; i < v.roots.size(); ++i) {
      const NodeId p = tree_.parent(v.roots[i]);
      if (p != kRootNode && tree_.method(p) == *m) paths.emplace_back(p, v.finals[i]);
    }
  }
  return store(std::move(calls), std::move(paths));
}

std::optional<Summary> TreeProfile::extend_bottom(Summary s, std::string_view name) {
  if (is_pattern(s)) return pattern_summary(iface::extended(pattern_record(s).pattern, iface::End::bottom, name));
  const View v = view(s);
  const auto m = tree_.find_method(name);  // as in extend_top
  if (!m) return std::nullopt;
  std::vector<MethodId> calls(v.calls.begin(), v.calls.end());
  calls.push_back(*m);
  if (auto known = find(calls)) return known;
  // Every node where calls @ [m] starts also starts calls, so it is one of s's roots. Walk
  // whichever side is smaller: the final nodes (find each one's child m), or the nodes of m
  // (keep those whose parent is a final node; its root is calls.size() - 1 levels up). The
  // suggesters try every bottom extension, and most are rare methods.
  std::vector<RootFinal> paths;
  std::span<const NodeId> callees;
  if (const auto listed = cached_extensions(s, *m, iface::End::bottom)) {
    for (const ExtensionNode& e : *listed) paths.emplace_back(v.roots[e.path], e.node);
  } else if (callees = tree_.nodes_of(*m); callees.size() < v.roots.size()) {
    for (NodeId c : callees) {
      const NodeId f = tree_.parent(c);
      if (!std::binary_search(v.sorted_finals.begin(), v.sorted_finals.end(), f)) continue;
      NodeId root = f;
      for (std::size_t i = 1; i < v.calls.size(); ++i) root = tree_.parent(root);
      paths.emplace_back(root, c);
    }
  } else {
    for (std::size_t i = 0; i < v.roots.size(); ++i)
      if (const NodeId* c = child_in(v.finals[i], callees)) paths.emplace_back(v.roots[i], *c);
  }
  return store(std::move(calls), std::move(paths));
}

std::optional<Summary> TreeProfile::trim_top(Summary s) {
  if (is_pattern(s)) return pattern_trimmed(s, iface::End::top);
  const View v = view(s);
  if (v.calls.size() == 1) return std::nullopt;
  return summary_of({v.calls.begin() + 1, v.calls.end()});
}

std::optional<Summary> TreeProfile::trim_bottom(Summary s) {
  if (is_pattern(s)) return pattern_trimmed(s, iface::End::bottom);
  const View v = view(s);
  if (v.calls.size() == 1) return std::nullopt;
  return summary_of({v.calls.begin(), v.calls.end() - 1});
}

std::optional<Summary> TreeProfile::path_summary(std::span<const std::string_view> path) {
  if (path.size() < 2) return path.empty() ? std::nullopt : method_summary(path.front());
  std::vector<MethodId> calls;
  calls.reserve(path.size());
  for (const std::string_view name : path) {
    const auto m = tree_.find_method(name);
    if (!m) return std::nullopt;
    calls.push_back(*m);
  }
  return summary_of(std::move(calls));
}

std::optional<Summary> TreeProfile::summary_of(std::vector<MethodId> calls) {
  if (auto known = find(calls)) return known;
  // Anchor on the rarest method of the sequence: walk parents for the calls before it and
  // children for the calls after it. Each anchor node lies on at most one path at that
  // position, so every (root, final) pair is found once.
  std::size_t anchor = 0;
  for (std::size_t j = 1; j < calls.size(); ++j)
    if (tree_.nodes_of(calls[j]).size() < tree_.nodes_of(calls[anchor]).size()) anchor = j;
  std::vector<RootFinal> paths;
  for (NodeId x : tree_.nodes_of(calls[anchor])) {
    NodeId root = x;
    bool ok = true;
    for (std::size_t i = anchor; ok && i-- > 0;) {
      root = tree_.parent(root);  // the synthetic root has no method, so it never matches
      ok = tree_.method(root) == calls[i];
    }
    NodeId final_node = x;
    for (std::size_t i = anchor + 1; ok && i < calls.size(); ++i) {
      const NodeId* c = child_in(final_node, tree_.nodes_of(calls[i]));
      ok = c != nullptr;
      if (ok) final_node = *c;
    }
    if (ok) paths.emplace_back(root, final_node);
  }
  return store(std::move(calls), std::move(paths));
}

}  // namespace bn::calltree
