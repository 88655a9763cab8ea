// Which paths of a summary are isolated (TreeProfile::PathFacts): the ones whose contribution to
// an extension — their own nodes, the subtree of their final node (seed 004 sec. 2.2), and the
// node one step beyond — no other path of the summary can touch. Extensions made of isolated
// paths are then measured and united by sums instead of node sets.
//
// Why the three tests below suffice. Two paths share a node only if the lower root lies on the
// higher path (siblings differ in method, so paths from one node down one call sequence do not
// fork). A node of path j inside the subtree of final f_i means root r_j is inside it too, or
// path j passes through f_i and shares it. Subtrees of two finals overlap only if one final lies
// in the other's subtree: then that path's root is inside too, or the path passes through the
// other final. A new top root p_j = parent(r_j) never equals another p_i (two roots would be
// siblings with the same method); it lies in a final's subtree only with r_j, and on a path only
// if the third test finds it. A new bottom final lies in its own path's final subtree, which no
// other path reaches.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <utility>

#include "bn/calltree/tree_profile.h"
#include "node_sweep.h"

namespace bn::calltree {

using iface::Amount;

const TreeProfile::PathFacts& TreeProfile::path_facts(Neighbourhood& n) const {
  if (n.facts) return *n.facts;
  const View v = view(n.of);
  const std::size_t paths = v.roots.size(), length = v.calls.size();
  PathFacts facts;
  facts.base.resize(paths);
  std::vector<bool> touched(paths, false);

  // Every path's nodes with the path's index, sorted by node; for length 1 that is the roots,
  // already in order. Summing the costs on the way gives each path's base.
  std::vector<std::pair<NodeId, std::uint32_t>> along;
  along.reserve(paths * length);
  for (std::uint32_t i = 0; i < paths; ++i) {
    Amount base = 0;
    NodeId x = v.finals[i];
    for (std::size_t j = 0; j < length; ++j, x = tree_.parent(x)) {
      base += tree_.cost(x);
      along.push_back({x, i});
    }
    facts.base[i] = base;
  }
  if (length > 1) std::sort(along.begin(), along.end());

  // 1. A node on two paths.
  for (std::size_t a = 1; a < along.size(); ++a)
    if (along[a].first == along[a - 1].first) touched[along[a].second] = touched[along[a - 1].second] = true;

  // 2. A root inside another path's final subtree: both paths. The roots inside subtree(f_i)
  // are a run of the sorted roots after r_i (r_i is f_i itself or above it); the runs are
  // marked by a difference array, so nested finals cost O(1) each.
  const NodeId* roots = v.roots.data();
  const NodeId* roots_end = roots + paths;
  std::vector<std::int32_t> runs(paths + 1, 0);
  for (std::uint32_t i = 0; i < paths; ++i) {
    const NodeId f = v.finals[i];
    const NodeId* lo = sweep::gallop(roots + i + 1, roots_end, f);
    const NodeId* hi = sweep::gallop(lo, roots_end, tree_.subtree_end(f));
    if (lo == hi) continue;
    touched[i] = true;
    ++runs[static_cast<std::size_t>(lo - roots)];
    --runs[static_cast<std::size_t>(hi - roots)];
  }
  std::int32_t inside = 0;
  for (std::size_t j = 0; j < paths; ++j)
    if ((inside += runs[j]) > 0) touched[j] = true;

  // 3. Top: a root's parent on a path (only when its method occurs in the call sequence).
  if (n.top)
    for (const ExtensionNode& e : n.nodes) {
      const auto [first, last] = std::equal_range(along.begin(), along.end(), std::pair<NodeId, std::uint32_t>{e.node, 0},
                                                  [](const auto& a, const auto& b) { return a.first < b.first; });
      if (first == last) continue;
      touched[e.path] = true;
      for (auto it = first; it != last; ++it) touched[it->second] = true;
    }

  facts.isolated.resize(paths);
  for (std::size_t i = 0; i < paths; ++i) facts.isolated[i] = !touched[i];
  fprintf(stderr, "DEBUG paths %zu isolated %zu\n", paths, static_cast<std::size_t>(std::count(facts.isolated.begin(), facts.isolated.end(), true)));
  n.facts = std::move(facts);
  return *n.facts;
}

}  // namespace bn::calltree
