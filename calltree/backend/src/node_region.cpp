#include "node_region.h"

#include <algorithm>
#include <bit>
#include <iterator>

#include "narrow_sums.h"
#include "node_sweep.h"

namespace bn::calltree::region {
namespace {

using iface::Amount;

template <typename Value>
SummedNodes summed(std::vector<NodeId> nodes, Value value) {
  SummedNodes out{std::move(nodes), {}, {}};
  out.sums.reserve(out.nodes.size());
  for (NodeId n : out.nodes) out.sums.add(value(n));
  return out;
}

// Position of the first node >= value at or after `from` (galloping: short skips are cheap).
std::size_t skip_to(const SummedNodes& list, std::size_t from, NodeId value) {
  const NodeId* first = list.nodes.data();
  return static_cast<std::size_t>(sweep::gallop(first + from, first + list.nodes.size(), value) - first);
}

// Appends node k of a subtree list, with its end and amount.
void append(SummedNodes& out, const SummedNodes& list, std::size_t k) {
  out.nodes.push_back(list.nodes[k]);
  out.ends.push_back(list.ends[k]);
  out.sums.add(run_sum(list, k, k + 1));
}

// A list kept long holds no spare capacity (a merge reserves for both of its lists).
void shrink(SummedNodes& list) {
  list.nodes.shrink_to_fit();
  list.ends.shrink_to_fit();
  list.sums.shrink_to_fit();
}

// Calls f(list, from, to) for each run of nodes of subtrees in both lists, in node order: for
// each nested pair, the inner one (equal nodes once). Both lists hold no node inside another of
// the same list, so a node inside one of the other list's subtrees lies inside exactly one, and
// the run of one list inside a subtree of the other is one call.
template <typename F>
void for_each_nested(const SummedNodes& a, const SummedNodes& b, F&& f) {
  std::size_t i = 0, j = 0;
  const std::size_t na = a.nodes.size(), nb = b.nodes.size();
  // With x the smaller head of (x list, y list): y's nodes inside x's subtree are taken, or
  // x's list skips to the last of its nodes before y's head, the only one that may hold it.
  const auto step = [&](const SummedNodes& x, std::size_t& xi, const SummedNodes& y, std::size_t& yi) {
    const NodeId end = x.ends[xi];
    if (y.nodes[yi] < end) {
      const std::size_t stop = skip_to(y, yi, end);
      f(y, yi, stop);
      yi = stop;
      ++xi;
    } else {
      xi = std::max(xi + 1, skip_to(x, xi + 1, y.nodes[yi]) - 1);
    }
  };
  while (i < na && j < nb) {
    if (a.nodes[i] == b.nodes[j]) {
      f(a, i, i + 1);
      ++i;
      ++j;
    } else if (a.nodes[i] < b.nodes[j]) {
      step(a, i, b, j);
    } else {
      step(b, j, a, i);
    }
  }
}

// Calls f(nodes, from, to) for each run of `nodes` inside some subtree of `tops` (none inside
// another's), in node order.
template <typename F>
void for_each_inside(const SummedNodes& nodes, const SummedNodes& tops, F&& f) {
  std::size_t i = 0, j = 0;
  while (i < nodes.nodes.size() && j < tops.nodes.size()) {
    const NodeId n = nodes.nodes[i], t = tops.nodes[j];
    const NodeId end = tops.ends[j];
    if (n < t) {
      i = skip_to(nodes, i, t);
    } else if (n < end) {
      const std::size_t stop = skip_to(nodes, i, end);
      f(nodes, i, stop);
      i = stop;
      ++j;
    } else {
      // The top that may hold n is the last one at or before it.
      j = std::max(j + 1, skip_to(tops, j + 1, n + 1) - 1);
    }
  }
}

// Calls f(a, i, i + 1) for each node of a that b holds too, in node order.
template <typename F>
void for_each_common(const SummedNodes& a, const SummedNodes& b, F&& f) {
  std::size_t i = 0, j = 0;
  while (i < a.nodes.size() && j < b.nodes.size()) {
    if (a.nodes[i] < b.nodes[j]) {
      i = skip_to(a, i, b.nodes[j]);
    } else if (b.nodes[j] < a.nodes[i]) {
      j = skip_to(b, j, a.nodes[i]);
    } else {
      f(a, i, i + 1);
      ++i;
      ++j;
    }
  }
}

// The sum over what a visitor above calls f with.
template <typename Visit>
Amount summed_runs(Visit visit) {
  Amount sum = 0;
  visit([&](const SummedNodes& list, std::size_t from, std::size_t to) { sum += run_sum(list, from, to); });
  return sum;
}

// Σ cum_cost over the nodes of subtrees in both lists.
Amount nested_subtrees(const SummedNodes& a, const SummedNodes& b) {
  return summed_runs([&](auto f) { for_each_nested(a, b, f); });
}
// Σ over the nodes of `nodes` inside some subtree of `tops`.
Amount inside(const SummedNodes& nodes, const SummedNodes& tops) {
  return summed_runs([&](auto f) { for_each_inside(nodes, tops, f); });
}
// Σ over the nodes in both lists.
Amount common(const SummedNodes& a, const SummedNodes& b) {
  return summed_runs([&](auto f) { for_each_common(a, b, f); });
}

using ByMethod = std::vector<std::pair<MethodId, Amount>>;

// Σ of the amounts in `values` of the methods in `keys`, both by id.
Amount of_methods(const ByMethod& keys, const ByMethod& values) {
  Amount sum = 0;
  auto v = values.begin();
  for (const auto& [m, unused] : keys) {
    v = std::lower_bound(v, values.end(), m, [](const auto& e, MethodId id) { return e.first < id; });
    if (v == values.end()) break;
    if (v->first == m) sum += v->second;
  }
  return sum;
}

}  // namespace

void PrefixSums::add(Amount amount) {
  if (wide_.empty()) {
    std::int64_t sum = narrow_.back();
    if (add_fits(sum, amount)) {
      narrow_.push_back(sum);
      return;
    }
    wide_.assign(narrow_.begin(), narrow_.end());
    narrow_ = {};
  }
  wide_.push_back(wide_.back() + amount);
}

SummedNodes subtrees(const CallTree& tree, std::vector<NodeId> nodes) {
  SummedNodes out = summed(std::move(nodes), [&](NodeId n) { return tree.cum_cost(n); });
  out.ends.reserve(out.nodes.size());
  for (NodeId n : out.nodes) out.ends.push_back(tree.subtree_end(n));
  return out;
}

SummedNodes single_nodes(const CallTree& tree, std::vector<NodeId> nodes) {
  return summed(std::move(nodes), [&](NodeId n) { return tree.cost(n); });
}

SummedNodes along_nodes(const CallTree& tree, std::vector<NodeId> nodes) {
  return summed(std::move(nodes), [&](NodeId n) { return tree.base_cost(n); });
}

Amount Region::base() const {
  Amount sum = along.total();
  for (const auto& [m, base] : methods) sum += base;
  return sum;
}

namespace {

Region region_of_lists(const CallTree& tree, SummedNodes tops, std::vector<NodeId> outside,
                       std::vector<std::pair<MethodId, Amount>> methods, std::vector<NodeId> along) {
  shrink(tops);
  outside.shrink_to_fit();
  along.shrink_to_fit();
  Region r{std::move(tops),
           single_nodes(tree, std::move(outside)),
           std::move(methods),
           along_nodes(tree, std::move(along)),
           {}};
  auto& by_method = r.along_by_method;
  for (NodeId n : r.along.nodes) by_method.emplace_back(tree.method(n), tree.base_cost(n));
  std::sort(by_method.begin(), by_method.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  // One entry per method.
  std::size_t kept = 0;
  for (std::size_t k = 0; k < by_method.size(); ++k) {
    if (kept > 0 && by_method[kept - 1].first == by_method[k].first)
      by_method[kept - 1].second += by_method[k].second;
    else
      by_method[kept++] = by_method[k];
  }
  by_method.resize(kept);
  by_method.shrink_to_fit();
  return r;
}

// The outermost subtrees of both lists (each of outermost subtrees): after each one taken,
// both lists skip past its end, as sweep::outermost does, with ends and cums from the lists.
SummedNodes outermost_union(const SummedNodes& a, const SummedNodes& b) {
  SummedNodes out;
  out.nodes.reserve(a.nodes.size() + b.nodes.size());
  out.ends.reserve(a.nodes.size() + b.nodes.size());
  out.sums.reserve(a.nodes.size() + b.nodes.size());
  std::size_t i = 0, j = 0;
  while (i < a.nodes.size() || j < b.nodes.size()) {
    const bool from_a = j == b.nodes.size() || (i < a.nodes.size() && a.nodes[i] <= b.nodes[j]);
    const SummedNodes& list = from_a ? a : b;
    const std::size_t k = from_a ? i : j;
    const NodeId end = list.ends[k];
    append(out, list, k);
    i = skip_to(a, i, end);
    j = skip_to(b, j, end);
  }
  return out;
}

// The nodes of both increasing lists, each once.
std::vector<NodeId> merged(const std::vector<NodeId>& a, const std::vector<NodeId>& b) {
  std::vector<NodeId> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// The nodes of the increasing list outside every subtree of `tops`; each node galloped to the
// last top at or before it, the only one that may hold it.
std::vector<NodeId> outside_of(const std::vector<NodeId>& nodes, const SummedNodes& tops) {
  std::vector<NodeId> out;
  std::size_t j = 0;
  for (NodeId n : nodes) {
    j = skip_to(tops, j, n + 1);
    if (j == 0 || tops.ends[j - 1] <= n) out.push_back(n);
  }
  return out;
}

bool has_method(const ByMethod& methods, MethodId m) {
  const auto at =
      std::lower_bound(methods.begin(), methods.end(), m, [](const auto& e, MethodId id) { return e.first < id; });
  return at != methods.end() && at->first == m;
}

}  // namespace

Region make_region(const CallTree& tree, std::vector<NodeId> tops, std::vector<NodeId> outside,
                   std::vector<std::pair<MethodId, Amount>> methods, std::vector<NodeId> along) {
  return region_of_lists(tree, subtrees(tree, std::move(tops)), std::move(outside), std::move(methods),
                         std::move(along));
}

Region united(const CallTree& tree, const Region& a, const Region& b) {
  SummedNodes tops = outermost_union(a.tops, b.tops);
  // Single nodes of either that the other's subtrees hold are counted there now.
  std::vector<NodeId> outside = outside_of(merged(a.outside.nodes, b.outside.nodes), tops);
  ByMethod methods;
  std::set_union(a.methods.begin(), a.methods.end(), b.methods.begin(), b.methods.end(), std::back_inserter(methods),
                 [](const auto& x, const auto& y) { return x.first < y.first; });
  // An along node of a method the other set has as a whole is counted with that method.
  std::vector<NodeId> along;
  for (NodeId n : merged(a.along.nodes, b.along.nodes))
    if (!has_method(methods, tree.method(n))) along.push_back(n);
  return region_of_lists(tree, std::move(tops), std::move(outside), std::move(methods), std::move(along));
}

Region intersection(const CallTree& tree, const Region& a, const Region& b) {
  // cum: the inner subtree of each nested pair of tops, then each one's single nodes inside the
  // other's subtrees and the single nodes of both; the inner tops lie in subtrees of both, so
  // none of those single nodes (each outside its own region's subtrees) lies in one of them.
  SummedNodes tops;
  for_each_nested(a.tops, b.tops, [&](const SummedNodes& list, std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) append(tops, list, k);
  });
  std::vector<NodeId> outside;
  const auto take = [&](const SummedNodes& list, std::size_t from, std::size_t to) {
    outside.insert(outside.end(), list.nodes.begin() + static_cast<std::ptrdiff_t>(from),
                   list.nodes.begin() + static_cast<std::ptrdiff_t>(to));
  };
  for_each_inside(a.outside, b.tops, take);
  for_each_inside(b.outside, a.tops, take);
  for_each_common(a.outside, b.outside, take);
  std::sort(outside.begin(), outside.end());
  // base: the methods of both, each one's along nodes of the other's methods (an along list
  // holds none of its own region's methods), and the along nodes of both.
  ByMethod methods;
  std::set_intersection(a.methods.begin(), a.methods.end(), b.methods.begin(), b.methods.end(),
                        std::back_inserter(methods), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<NodeId> along;
  for (NodeId n : a.along.nodes)
    if (has_method(b.methods, tree.method(n))) along.push_back(n);
  for (NodeId n : b.along.nodes)
    if (has_method(a.methods, tree.method(n))) along.push_back(n);
  for_each_common(a.along, b.along,
                  [&](const SummedNodes& list, std::size_t k, std::size_t) { along.push_back(list.nodes[k]); });
  std::sort(along.begin(), along.end());
  return region_of_lists(tree, std::move(tops), std::move(outside), std::move(methods), std::move(along));
}

// The intersection of two cum regions is four disjoint parts: the subtrees of both, a's single
// nodes in b's subtrees and the reverse, single nodes of both. These are the last three.
Amount shared_single_nodes(const Region& a, const Region& b) {
  return inside(a.outside, b.tops) + inside(b.outside, a.tops) + common(a.outside, b.outside);
}

Amount shared_cum(const Region& a, const Region& b) {
  return nested_subtrees(a.tops, b.tops) + shared_single_nodes(a, b);
}

TopIndex index_tops(const CallTree& tree, const SummedNodes& tops) {
  const std::size_t nodes = tree.node_count();
  const std::size_t per_top = nodes / std::max<std::size_t>(tops.nodes.size(), 1);
  TopIndex index{per_top <= 1 ? 0U : static_cast<unsigned>(std::bit_width(per_top - 1)), {}};
  const std::size_t blocks = (nodes >> index.shift) + 2;
  index.first.reserve(blocks);
  std::uint32_t k = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    while (k < tops.nodes.size() && (tops.nodes[k] >> index.shift) < b) ++k;
    index.first.push_back(k);
  }
  return index;
}

namespace {

// sweep::gallop for the usual case of a skip of a few entries, decided without a call.
const NodeId* skip_few(const NodeId* first, const NodeId* last, NodeId value) {
  for (int k = 0; k < 4; ++k, ++first)
    if (first == last || *first >= value) return first;
  return sweep::gallop(first, last, value);
}

// Where `node` falls among the tops: the first at or after it, found in its block.
const NodeId* place(const SummedNodes& tops, const TopIndex& index, NodeId node) {
  const NodeId* nodes = tops.nodes.data();
  const std::size_t block = node >> index.shift;
  return skip_few(nodes + index.first[block], nodes + index.first[block + 1], node);
}

}  // namespace

Amount shared_cum(const Region& a, const Region& b, const TopIndex& b_index) {
  // For each of a's tops q: the top of b that holds it shares q's whole subtree; otherwise
  // b's tops inside q's subtree share theirs (one at q itself included), a run of b's list.
  // Neither list nests, so no pair is counted twice (as in nested_subtrees).
  const SummedNodes& q = a.tops;
  const SummedNodes& tops = b.tops;
  const NodeId* nodes = tops.nodes.data();
  const NodeId* last = nodes + tops.nodes.size();
  Amount sum = 0;
  for (std::size_t k = 0; k < q.nodes.size(); ++k) {
    const NodeId top = q.nodes[k];
    const NodeId* at = place(tops, b_index, top);
    const auto i = static_cast<std::size_t>(at - nodes);
    // When a top of b holds q, b's next top starts after q's subtree: the run is empty.
    const auto j = static_cast<std::size_t>(skip_few(at, last, q.ends[k]) - nodes);
    const bool held = i > 0 && tops.ends[i - 1] > top;
    // An empty run reads no sums: most tops of one hot method's set hold none of another's.
    if (held)
      sum += run_sum(q, k, k + 1);
    else if (j > i)
      sum += run_sum(tops, i, j);
  }
  return sum + shared_single_nodes(a, b);
}

namespace {

// In the word of node n: the bits of n and above / of n and below.
std::uint64_t bits_from(NodeId n) { return ~std::uint64_t{0} << (n % 64); }
std::uint64_t bits_through(NodeId n) { return ~std::uint64_t{0} >> (63 - n % 64); }

}  // namespace

Coverage cover(const CallTree& tree, const SummedNodes& tops) {
  Coverage c{std::vector<std::uint64_t>((tree.node_count() + 63) / 64, 0)};
  for (std::size_t k = 0; k < tops.nodes.size(); ++k) {
    // The bits [top, end): whole words between a first and a last partial one.
    const NodeId top = tops.nodes[k], last = tops.ends[k] - 1;
    if (top / 64 == last / 64) {
      c.bits[top / 64] |= bits_from(top) & bits_through(last);
      continue;
    }
    c.bits[top / 64] |= bits_from(top);
    std::fill(c.bits.begin() + top / 64 + 1, c.bits.begin() + last / 64, ~std::uint64_t{0});
    c.bits[last / 64] |= bits_through(last);
  }
  return c;
}

bool Coverage::any_in(NodeId from, NodeId to) const {
  if (from >= to) return false;
  const NodeId last = to - 1;
  if (from / 64 == last / 64) return (bits[from / 64] & bits_from(from) & bits_through(last)) != 0;
  if ((bits[from / 64] & bits_from(from)) != 0) return true;
  for (std::size_t w = from / 64 + 1; w < last / 64; ++w)
    if (bits[w] != 0) return true;
  return (bits[last / 64] & bits_through(last)) != 0;
}

void shared_cum_each(std::span<const Region* const> others, const Region& b, const TopIndex& b_index,
                     const Coverage& b_cover, std::span<Amount> out) {
  // For each top q of another set: a bit set, a top of b holds q and shares its whole subtree;
  // clear, no top of b is at q either, and b's tops inside q's subtree lie after it, where the
  // bits show whether there are any (usually not: b's sums are then not read at all).
  const SummedNodes& tops = b.tops;
  const NodeId* nodes = tops.nodes.data();
  const NodeId* last = nodes + tops.nodes.size();
  std::vector<std::size_t> next(others.size(), 0);
  std::fill(out.begin(), out.end(), Amount{0});
  // A 128th of the tree at a time: 78k nodes at 10M, holding ~2k of a hot label's tops, whose
  // lists and bits then stay in the cache for all the walks.
  const std::size_t node_count = b_cover.bits.size() * 64;
  const std::size_t stretch = std::max<std::size_t>(64, node_count / 128);
  for (std::size_t from = 0; from < node_count; from += stretch) {
    const std::size_t to = from + stretch;
    for (std::size_t i = 0; i < others.size(); ++i) {
      const SummedNodes& q = others[i]->tops;
      Amount sum = 0;
      std::size_t k = next[i];
      // Held tops come in runs, each summed at its ends: the sums are read per run, not per top.
      std::size_t held_from = k;
      for (; k < q.nodes.size() && q.nodes[k] < to; ++k) {
        const NodeId top = q.nodes[k];
        if (b_cover.holds(top)) continue;
        if (k > held_from) sum += run_sum(q, held_from, k);
        held_from = k + 1;
        const NodeId end = q.ends[k];
        if (b_cover.any_in(top + 1, end)) {
          const NodeId* at = place(tops, b_index, top + 1);
          sum += run_sum(tops, static_cast<std::size_t>(at - nodes),
                         static_cast<std::size_t>(skip_few(at, last, end) - nodes));
        }
      }
      next[i] = k;
      out[i] += sum + run_sum(q, held_from, k);
    }
  }
  for (std::size_t i = 0; i < others.size(); ++i) out[i] += shared_single_nodes(*others[i], b);
}

Amount shared_base(const Region& a, const Region& b) {
  // Nodes of a method of both; a's along nodes of one of b's methods and the reverse (an along
  // list holds no node of its own region's methods); along nodes of both.
  Amount sum = 0;
  auto bm = b.methods.begin();
  for (const auto& [m, base] : a.methods) {
    bm = std::lower_bound(bm, b.methods.end(), m, [](const auto& e, MethodId id) { return e.first < id; });
    if (bm != b.methods.end() && bm->first == m) sum += base;
  }
  return sum + of_methods(b.methods, a.along_by_method) + of_methods(a.methods, b.along_by_method) +
         common(a.along, b.along);
}

}  // namespace bn::calltree::region
