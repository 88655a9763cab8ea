// Extensions of the tree backend (seed 004 sec. 2.2): the names m such that m :: path or
// path @ [m] labels a path, found from the parents of the roots and the children of the final
// nodes. The nodes found are kept, grouped by method, so extending by each listed name in turn
// (zooming, sec. 2.3) does not search the tree again, and measuring them all at once
// (extension_amounts) needs no summary per extension.
#include <algorithm>

#include "bn/calltree/tree_profile.h"
#include "node_sweep.h"

namespace bn::calltree {

using iface::Amount;
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

void TreeProfile::group_by_method(std::vector<ExtensionNode>& nodes) const {
  // Listed in path order, and a final's children in preorder, so sorting by method alone with
  // a stable counting sort gives the (method, path, node) order. Worth its pass over the
  // methods only for large neighbourhoods (a hot utility has 10^5 callers).
  if (nodes.size() < method_count_ / 8) {
    std::sort(nodes.begin(), nodes.end());
    return;
  }
  std::vector<std::uint32_t> start(method_count_ + 1, 0);
  for (const ExtensionNode& e : nodes) ++start[e.method + 1];
  for (std::size_t m = 1; m <= method_count_; ++m) start[m] += start[m - 1];
  std::vector<ExtensionNode> grouped(nodes.size());
  for (const ExtensionNode& e : nodes) grouped[start[e.method]++] = e;
  nodes = std::move(grouped);
}

const std::shared_ptr<TreeProfile::Neighbourhood>& TreeProfile::list_extensions(Summary s, iface::End end) {
  const View v = view(s);
  auto n = std::make_shared<Neighbourhood>();
  n->of = s;
  n->end = end;
  for (std::uint32_t i = 0; i < v.roots.size(); ++i) {
    if (end == iface::End::top) {
      const NodeId p = tree_.parent(v.roots[i]);
      if (p != kRootNode)
        n->nodes.push_back(  // the root is no method
            {tree_.method(p), i, p, tree_.cost(p), tree_.base_cost(p), tree_.cum_cost(p)});
    } else {
      for (NodeId c : tree_.children(v.finals[i]))
        n->nodes.push_back({tree_.method(c), i, c, tree_.cost(c), tree_.base_cost(c), tree_.cum_cost(c)});
    }
  }
  group_by_method(n->nodes);
  std::shared_ptr<Neighbourhood>& cache = cache_of(end);
  cache = std::move(n);
  return cache;
}

const std::shared_ptr<TreeProfile::Neighbourhood>& TreeProfile::neighbourhood(Summary s, iface::End end) {
  const std::shared_ptr<Neighbourhood>& cache = cache_of(end);
  return cache && cache->of == s ? cache : list_extensions(s, end);
}

std::vector<std::string_view> TreeProfile::extension_names(const Neighbourhood& n) {
  std::vector<MethodId> methods;
  for (const ExtensionNode& e : n.nodes)
    if (methods.empty() || methods.back() != e.method) methods.push_back(e.method);
  const auto& rank = name_rank();
  std::sort(methods.begin(), methods.end(), [&](MethodId a, MethodId b) { return rank[a] < rank[b]; });
  std::vector<std::string_view> names;
  names.reserve(methods.size());
  for (MethodId m : methods) names.push_back(tree_.method_name(m));
  return names;
}

std::span<const TreeProfile::ExtensionNode> TreeProfile::extension_group(const Neighbourhood& n, MethodId m) {
  const auto first = std::lower_bound(n.nodes.begin(), n.nodes.end(), ExtensionNode{m, 0, 0});
  const auto last = std::lower_bound(first, n.nodes.end(), ExtensionNode{m + 1, 0, 0});
  return {first, last};
}

std::optional<std::span<const TreeProfile::ExtensionNode>> TreeProfile::cached_extensions(Summary s, MethodId m,
                                                                                          iface::End end) const {
  const std::shared_ptr<Neighbourhood>& cache = cache_of(end);
  if (!cache || cache->of != s) return std::nullopt;
  return extension_group(*cache, m);
}

std::vector<iface::ExtensionAmounts> TreeProfile::extension_amounts(Summary s, iface::End end) {
  if (is_pattern(s)) {
    return end == iface::End::bottom ? pattern_bottom_amounts(pattern_record(s))
                                     : pattern_top_amounts(pattern_record(s));
  }
  const std::shared_ptr<Neighbourhood>& n = neighbourhood(s, end);  // nothing below lists again
  if (n->amounts) return *n->amounts;
  isolation(*n);
  std::vector<iface::ExtensionAmounts> out;
  for (auto first = n->nodes.begin(); first != n->nodes.end();) {
    const MethodId m = first->method;
    const auto last = std::find_if(first, n->nodes.end(), [&](const ExtensionNode& e) { return e.method != m; });
    const auto [cum, base] = measure_extension(*n, {first, last});
    out.push_back({tree_.method_name(m), cum, base, m});
    first = last;
  }
  n->amounts = out;
  return out;
}

std::pair<Amount, Amount> TreeProfile::measure_extension(const Neighbourhood& n, std::span<const ExtensionNode> group) {
  const View v = view(n.of);
  const PathFacts& facts = *n.facts;
  if (std::all_of(group.begin(), group.end(), [&](const ExtensionNode& e) { return n.isolated[e.path]; })) {
    // Nothing is shared, so cum and base are sums over the paths: each path's own nodes plus
    // the new root above it (top) or the new final's subtree below it (bottom).
    Amount cum = 0, base = 0;
    for (const ExtensionNode& e : group) {
      base += facts.base[e.path] + e.base;
      cum += isolated_cum(n, e);
    }
    return {cum, base};
  }
  // The extended paths' finals and nodes, as building the extension would find them.
  Scratch& w = scratch_;
  w.finals.clear();
  w.along.clear();
  for (const ExtensionNode& e : group) {
    w.finals.push_back(n.end == iface::End::top ? v.finals[e.path] : e.node);
    w.along.push_back(e.node);
    NodeId x = v.finals[e.path];
    for (std::size_t j = 0; j < v.calls.size(); ++j, x = tree_.parent(x)) w.along.push_back(x);
  }
  std::sort(w.finals.begin(), w.finals.end());  // distinct: one per path
  sweep::sort_unique(w.along);
  return measure_nodes(w.finals, w.along, w.tops, w.exposed);
}

Amount TreeProfile::isolated_cum(const Neighbourhood& n, const ExtensionNode& e) {
  return n.end == iface::End::top ? n.facts->alone[e.path] + e.cost : n.facts->own[e.path] + e.cum_cost;
}

std::vector<std::string_view> TreeProfile::top_extensions(Summary s) {
  if (is_pattern(s)) return pattern_top_extensions(pattern_record(s));
  return extension_names(*neighbourhood(s, iface::End::top));
}

std::vector<std::string_view> TreeProfile::bottom_extensions(Summary s) {
  if (is_pattern(s)) return pattern_bottom_extensions(pattern_record(s));
  return extension_names(*neighbourhood(s, iface::End::bottom));
}

}  // namespace bn::calltree
