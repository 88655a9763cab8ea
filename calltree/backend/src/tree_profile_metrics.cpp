// Base and cum of the tree backend (seed 004 sec. 2.2): for one summary, computed once when it
// is built; for sets, a sweep over the summaries' sorted node lists so that every node is
// counted once however many summaries reach it.
#include <algorithm>
#include <tuple>
#include <utility>

#include "bn/calltree/tree_profile.h"
#include "node_sweep.h"

namespace bn::calltree {

using iface::Amount;
using iface::Summary;

namespace {

std::vector<Summary> distinct(std::span<const Summary> S) {
  std::vector<Summary> ids(S.begin(), S.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

void TreeProfile::compute_metrics(Sequence& seq) const {
  seq.sorted_finals = seq.finals;
  std::sort(seq.sorted_finals.begin(),
            seq.sorted_finals.end());  // distinct: a final determines its root
  // A path is its final node and the calls.size() - 1 nodes above it.
  seq.along.reserve(seq.finals.size() * seq.calls.size());
  for (NodeId n : seq.sorted_finals) sweep::append_path(tree_, n, seq.calls.size(), seq.along);
  sweep::sort_unique(seq.along);
  std::tie(seq.cum, seq.base) = measure_nodes(seq.sorted_finals, seq.along, seq.top_finals, seq.exposed);
}

std::pair<Amount, Amount> TreeProfile::measure_nodes(std::span<const NodeId> finals, std::span<const NodeId> along,
                                                     std::vector<NodeId>& tops, std::vector<NodeId>& exposed) const {
  sweep::outermost_of_sorted(tree_, finals, tops);
  exposed.clear();
  sweep::for_each_outside(tree_, along, tops, [&](NodeId n) { exposed.push_back(n); });
  // along ∪ descendants(final) = the outermost final subtrees plus the along nodes outside
  // them; a path node below another path's final node is inside a subtree and counted there.
  return {sweep::sum_cum_cost(tree_, tops) + sweep::sum_cost(tree_, exposed), sweep::sum_base_cost(tree_, along)};
}

std::span<const NodeId> TreeProfile::top_finals(Summary s) {
  if (!is_method_summary(s)) return sequence(s).top_finals;
  const auto nodes = view(s).roots;
  if (!method_totals()[s.id].nested) return nodes;
  std::vector<NodeId>& tops = method_top_finals_[s.id];
  if (tops.empty()) {
    const std::span<const NodeId> list[] = {nodes};
    tops = sweep::outermost(tree_, list);
  }
  return tops;
}

Amount TreeProfile::total_base_of(std::span<const Summary> S) {
  const std::vector<Summary> ids = distinct(S);
  if (std::any_of(ids.begin(), ids.end(), is_pattern))
    return ids.size() == 1 ? base_of(ids.front()) : marked_total(ids, false);
  if (ids.size() == 1) return base_of(ids.front());
  const auto [methods, nodes] = base_union_nodes(ids);
  Amount total = 0;
  for (MethodId m : methods) total += method_totals()[m].base;
  return total + sweep::sum_base_cost(tree_, nodes);
}

std::pair<std::vector<MethodId>, std::vector<NodeId>> TreeProfile::base_union_nodes(std::span<const Summary> S) const {
  const std::vector<Summary> ids = distinct(S);
  // A length-1 summary [m] in S covers every node of m, so other summaries' nodes of m add
  // nothing: count [m] from the per-method totals and only the remaining path nodes by node.
  // Handles of length-1 summaries are method ids, below every other handle: a sorted prefix.
  const auto methods_end =
      std::partition_point(ids.begin(), ids.end(), [&](Summary s) { return is_method_summary(s); });
  std::vector<MethodId> methods;
  for (auto it = ids.begin(); it != methods_end; ++it) methods.push_back(it->id);
  std::vector<NodeId> nodes;
  for (auto it = methods_end; it != ids.end(); ++it)
    for (NodeId n : sequence(*it).along)
      if (!std::binary_search(methods.begin(), methods.end(), tree_.method(n))) nodes.push_back(n);
  sweep::sort_unique(nodes);
  return {std::move(methods), std::move(nodes)};
}

Amount TreeProfile::total_cum_of(std::span<const Summary> S) {
  const std::vector<Summary> ids = distinct(S);
  if (std::any_of(ids.begin(), ids.end(), is_pattern))
    return ids.size() == 1 ? cum_of(ids.front()) : marked_total(ids, true);
  if (ids.size() == 1) return cum_of(ids.front());
  const auto [tops, outside] = cum_union_nodes(ids);
  return sweep::sum_cum_cost(tree_, tops) + sweep::sum_cost(tree_, outside);
}

std::pair<std::vector<NodeId>, std::vector<NodeId>> TreeProfile::cum_union_nodes(std::span<const Summary> S) {
  const std::vector<Summary> ids = distinct(S);
  // along(S) ∪ descendants(final(S)) = subtrees of the outermost finals of the union plus the
  // along nodes outside them. Only summaries of length >= 2 have along nodes that are not
  // final (their `exposed` nodes), and only those can fall outside the union's subtrees.
  std::vector<std::span<const NodeId>> lists;
  lists.reserve(ids.size());
  for (Summary s : ids) lists.push_back(top_finals(s));
  std::vector<NodeId> tops = sweep::outermost(tree_, lists);

  std::vector<NodeId> exposed;
  for (Summary s : ids)
    if (!is_method_summary(s)) {
      const auto& more = sequence(s).exposed;
      exposed.insert(exposed.end(), more.begin(), more.end());
    }
  sweep::sort_unique(exposed);
  std::vector<NodeId> outside;
  sweep::for_each_outside(tree_, exposed, tops, [&](NodeId n) { outside.push_back(n); });
  return {std::move(tops), std::move(outside)};
}

}  // namespace bn::calltree
