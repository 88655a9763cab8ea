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
#include <boost/sort/spreadsort/integer_sort.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <utility>

#include "bn/calltree/tree_profile.h"
#include "node_sweep.h"

namespace bn::calltree {

using iface::Amount;

std::shared_ptr<const TreeProfile::PathFacts> TreeProfile::path_facts(iface::Summary s) {
  if (facts_cache_ && facts_cache_->of == s) return facts_cache_;
  const View v = view(s);
  const std::size_t paths = v.roots.size(), length = v.calls.size();
  auto facts = std::make_shared<PathFacts>();
  facts->of = s;
  facts->own.resize(paths);
  facts->base.resize(paths);
  facts->alone.resize(paths);
  std::vector<bool>& touched = facts->touched;
  touched.assign(paths, false);

  // Each path's own and base costs, and for length >= 2 its nodes with the path's index, sorted.
  // Each path is listed root first, so paths apart (in root order) come out sorted already.
  std::vector<std::pair<NodeId, std::uint32_t>>& along = facts->along;
  if (length > 1) along.resize(paths * length);
  for (std::uint32_t i = 0; i < paths; ++i) {
    Amount own = 0, base = 0;
    NodeId x = v.finals[i];
    for (std::size_t j = 0; j < length; ++j, x = tree_.parent(x)) {
      own += tree_.cost(x);
      base += tree_.base_cost(x);
      if (length > 1) along[(i + 1) * length - 1 - j] = {x, i};
    }
    facts->own[i] = own;
    facts->base[i] = base;
    facts->alone[i] = own - tree_.cost(v.finals[i]) + tree_.cum_cost(v.finals[i]);
  }
  if (!std::is_sorted(along.begin(), along.end()))
    boost::sort::spreadsort::integer_sort(
        along.begin(), along.end(),
        [](const std::pair<NodeId, std::uint32_t>& a, unsigned offset) {
          return ((std::uint64_t{a.first} << 32) | a.second) >> offset;
        },
        std::less<>());

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

  facts_cache_ = std::move(facts);
  return facts_cache_;
}

void TreeProfile::isolation(Neighbourhood& n) {
  if (n.facts) return;
  n.facts = path_facts(n.of);
  n.isolated.resize(n.facts->touched.size());
  for (std::size_t i = 0; i < n.isolated.size(); ++i) n.isolated[i] = !n.facts->touched[i];
  // 3. Top: a root's parent on a path, which needs its method in the call sequence: both the
  // path it lies on and the path it extends. For length 1 the path is its root, and a root's
  // parent that is a root puts that root in the other's final subtree: test 2 has it.
  const View v = view(n.of);
  if (n.end == iface::End::bottom || v.calls.size() == 1) return;
  std::vector<MethodId> calls(v.calls.begin(), v.calls.end());
  std::sort(calls.begin(), calls.end());
  const auto& along = n.facts->along;
  for (const ExtensionNode& e : n.nodes) {
    if (!std::binary_search(calls.begin(), calls.end(), e.method)) continue;
    const auto [first, last] = std::equal_range(along.begin(), along.end(), std::pair<NodeId, std::uint32_t>{e.node, 0},
                                                [](const auto& a, const auto& b) { return a.first < b.first; });
    if (first == last) continue;
    n.isolated[e.path] = false;
    for (auto it = first; it != last; ++it) n.isolated[it->second] = false;
  }
}

}  // namespace bn::calltree
