// Extensions of the tree backend (seed 004 sec. 2.2): the names m such that m :: path or
// path @ [m] labels a path, found from the parents of the roots and the children of the final
// nodes. The nodes found are kept, grouped by method, so extending by each listed name in turn
// (zooming, sec. 2.3) does not search the tree again.
#include <algorithm>

#include "bn/calltree/tree_profile.h"

namespace bn::calltree {

using iface::Summary;

const std::vector<std::uint32_t>& TreeProfile::name_rank() {
  if (name_rank_.empty() && method_count_ > 0) {
    std::vector<MethodId> order(method_ids_);
    std::sort(order.begin(), order.end(),
              [&](MethodId a, MethodId b) { return tree_.method_name(a) < tree_.method_name(b); });
    name_rank_.resize(method_count_);
    for (std::uint32_t i = 0; i < method_count_; ++i) name_rank_[order[i]] = i;
  }
  return name_rank_;
}

std::vector<std::string_view> TreeProfile::list_extensions(Summary s, bool top) {
  const View v = view(s);
  ExtensionCache& cache = top ? top_cache_ : bottom_cache_;
  cache.of.reset();
  cache.nodes.clear();
  cache.amounts.reset();
  for (std::uint32_t i = 0; i < v.roots.size(); ++i) {
    if (top) {
      const NodeId p = tree_.parent(v.roots[i]);
      if (p != kRootNode) cache.nodes.push_back({tree_.method(p), i, p});  // the root is no method
    } else {
      for (NodeId c : tree_.children(v.finals[i])) cache.nodes.push_back({tree_.method(c), i, c});
    }
  }
  std::sort(cache.nodes.begin(), cache.nodes.end());
  cache.of = s;

  std::vector<MethodId> methods;
  for (const ExtensionNode& e : cache.nodes)
    if (methods.empty() || methods.back() != e.method) methods.push_back(e.method);
  const auto& rank = name_rank();
  std::sort(methods.begin(), methods.end(),
            [&](MethodId a, MethodId b) { return rank[a] < rank[b]; });
  std::vector<std::string_view> names;
  names.reserve(methods.size());
  for (MethodId m : methods) names.push_back(tree_.method_name(m));
  return names;
}

std::optional<std::span<const TreeProfile::ExtensionNode>> TreeProfile::cached_extensions(
    Summary s, MethodId m, bool top) const {
  const ExtensionCache& cache = top ? top_cache_ : bottom_cache_;
  if (cache.of != s) return std::nullopt;
  const auto first =
      std::lower_bound(cache.nodes.begin(), cache.nodes.end(), ExtensionNode{m, 0, 0});
  const auto last = std::lower_bound(first, cache.nodes.end(), ExtensionNode{m + 1, 0, 0});
  return std::span<const ExtensionNode>(first, last);
}

std::vector<iface::ExtensionAmounts> TreeProfile::extension_amounts(Summary s, bool top) {
  ExtensionCache& cache = top ? top_cache_ : bottom_cache_;
  if (cache.of == s && cache.amounts) return *cache.amounts;
  list_extensions(s, top);
  const View v = view(s);
  const std::vector<ExtensionNode>& nodes = cache.nodes;
  std::vector<iface::ExtensionAmounts> out;
  for (auto first = nodes.begin(); first != nodes.end();) {
    const MethodId m = first->method;
    const auto last = std::find_if(first, nodes.end(), [&](const ExtensionNode& e) { return e.method != m; });
    std::vector<MethodId> calls(v.calls.begin(), v.calls.end());
    calls.insert(top ? calls.begin() : calls.end(), m);
    if (const auto known = find(calls)) {
      out.push_back({tree_.method_name(m), cum_of(*known), base_of(*known)});
    } else {
      // The same (root, final) pairs extend_top/extend_bottom take from this cache.
      std::vector<RootFinal> paths;
      for (auto e = first; e != last; ++e)
        paths.push_back(top ? RootFinal{e->node, v.finals[e->path]} : RootFinal{v.roots[e->path], e->node});
      const Sequence seq = measure(std::move(calls), std::move(paths));
      out.push_back({tree_.method_name(m), seq.cum, seq.base});
    }
    first = last;
  }
  cache.amounts = out;
  return out;
}

std::vector<std::string_view> TreeProfile::top_extensions(Summary s) {
  return list_extensions(s, true);
}

std::vector<std::string_view> TreeProfile::bottom_extensions(Summary s) {
  return list_extensions(s, false);
}

}  // namespace bn::calltree
