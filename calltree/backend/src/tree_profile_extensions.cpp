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

void TreeProfile::group_by_method(const std::vector<ExtensionNode>& listed, std::vector<ExtensionNode>& grouped) const {
  // Listed in path order, and a final's children in preorder, so sorting by method alone with
  // a stable counting sort gives the (method, path, node) order. Worth its pass over the
  // methods only for large neighbourhoods (a hot utility has 10^5 callers).
  if (listed.size() < method_count_ / 8) {
    grouped.assign(listed.begin(), listed.end());
    std::sort(grouped.begin(), grouped.end());
    return;
  }
  std::vector<std::uint32_t> start(method_count_ + 1, 0);
  for (const ExtensionNode& e : listed) ++start[e.method + 1];
  for (std::size_t m = 1; m <= method_count_; ++m) start[m] += start[m - 1];
  grouped.resize(listed.size());
  for (const ExtensionNode& e : listed) grouped[start[e.method]++] = e;
}

const std::shared_ptr<TreeProfile::Neighbourhood>& TreeProfile::list_extensions(Summary s, iface::End end) {
  const View v = view(s);
  std::shared_ptr<Neighbourhood>& cache = cache_of(end);
  // The grouped list of a neighbourhood no running union holds any more is the next one's.
  std::vector<ExtensionNode> grouped;
  if (cache && cache.use_count() == 1) grouped = std::move(cache->nodes);
  cache.reset();
  listed_.clear();
  if (end == iface::End::top) {
    for (std::uint32_t i = 0; i < v.roots.size(); ++i)
      if (const NodeId p = tree_.parent(v.roots[i]); p != kRootNode)  // the root is no method
        listed_.push_back({tree_.method(p), i, p, tree_.base_cost(p), tree_.cost(p)});
  } else {
    for (std::uint32_t i = 0; i < v.roots.size(); ++i)
      for (NodeId c : tree_.children(v.finals[i]))
        listed_.push_back({tree_.method(c), i, c, tree_.base_cost(c), tree_.cum_cost(c)});
  }
  auto n = std::make_shared<Neighbourhood>();
  n->of = s;
  n->end = end;
  n->nodes = std::move(grouped);
  group_by_method(listed_, n->nodes);
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
  // In name order, by the ranks of the names: a comparison merges its runs' lists by name.
  const auto& rank = name_rank();
  std::sort(out.begin(), out.end(), [&](const iface::ExtensionAmounts& a, const iface::ExtensionAmounts& b) {
    return rank[a.tag] < rank[b.tag];
  });
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
    const bool top = n.end == iface::End::top;
    w.finals.push_back(top ? v.finals[e.path] : e.node);
    if (top) w.along.push_back(e.node);
    sweep::append_path(tree_, v.finals[e.path], v.calls.size(), w.along);
    if (!top) w.along.push_back(e.node);
  }
  std::sort(w.finals.begin(), w.finals.end());  // distinct: one per path
  sweep::sort_unique(w.along);
  return measure_nodes(w.finals, w.along, w.tops, w.exposed);
}

Amount TreeProfile::isolated_cum(const Neighbourhood& n, const ExtensionNode& e) {
  return (n.end == iface::End::top ? n.facts->alone[e.path] : n.facts->own[e.path]) + e.adds;
}

std::vector<std::string_view> TreeProfile::top_extensions(Summary s) {
  if (is_pattern(s)) return pattern_top_extensions(pattern_record(s));
  return extension_names(*neighbourhood(s, iface::End::top));
}

std::vector<std::string_view> TreeProfile::top_extensions_up_to(Summary s, std::size_t at_most,
                                                                std::string_view other_than) {
  const std::shared_ptr<Neighbourhood>& listed = cache_of(iface::End::top);
  if (is_pattern(s) || (listed && listed->of == s)) return iface::Profile::top_extensions_up_to(s, at_most, other_than);
  const std::optional<MethodId> left_out = tree_.find_method(other_than);
  std::vector<MethodId> found;
  for (const NodeId root : view(s).roots) {
    if (found.size() >= at_most) break;
    const NodeId p = tree_.parent(root);
    if (p == kRootNode) continue;  // the root is no method
    const MethodId m = tree_.method(p);
    if (m != left_out && std::find(found.begin(), found.end(), m) == found.end()) found.push_back(m);
  }
  std::vector<std::string_view> names;
  names.reserve(found.size());
  for (const MethodId m : found) names.push_back(tree_.method_name(m));
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string_view> TreeProfile::bottom_extensions(Summary s) {
  if (is_pattern(s)) return pattern_bottom_extensions(pattern_record(s));
  return extension_names(*neighbourhood(s, iface::End::bottom));
}

}  // namespace bn::calltree
