#include "node_region.h"

#include <algorithm>
#include <bit>

#include "node_sweep.h"

namespace bn::calltree::region {
namespace {

using iface::Amount;

template <typename Value>
SummedNodes summed(std::vector<NodeId> nodes, Value value) {
  SummedNodes out{std::move(nodes), {}, {}};
  out.sums.reserve(out.nodes.size() + 1);
  Amount sum = 0;
  out.sums.push_back(sum);
  for (NodeId n : out.nodes) out.sums.push_back(sum += value(n));
  return out;
}

// Position of the first node >= value at or after `from` (galloping: short skips are cheap).
std::size_t skip_to(const SummedNodes& list, std::size_t from, NodeId value) {
  const NodeId* first = list.nodes.data();
  return static_cast<std::size_t>(sweep::gallop(first + from, first + list.nodes.size(), value) - first);
}

Amount run_sum(const SummedNodes& list, std::size_t from, std::size_t to) { return list.sums[to] - list.sums[from]; }

// Σ cum_cost over the nodes of subtrees in both lists: for each nested pair, the inner one
// (equal nodes once). Both lists hold no node inside another of the same list, so a node
// inside one of the other list's subtrees lies inside exactly one, and the run of one list
// inside a subtree of the other sums from the prefix sums.
Amount nested_subtrees(const SummedNodes& a, const SummedNodes& b) {
  Amount sum = 0;
  std::size_t i = 0, j = 0;
  const std::size_t na = a.nodes.size(), nb = b.nodes.size();
  // With x the smaller head of (x list, y list): y's nodes inside x's subtree are counted, or
  // x's list skips to the last of its nodes before y's head, the only one that may hold it.
  const auto step = [&](const SummedNodes& x, std::size_t& xi, const SummedNodes& y, std::size_t& yi) {
    const NodeId end = x.ends[xi];
    if (y.nodes[yi] < end) {
      const std::size_t stop = skip_to(y, yi, end);
      sum += run_sum(y, yi, stop);
      yi = stop;
      ++xi;
    } else {
      xi = std::max(xi + 1, skip_to(x, xi + 1, y.nodes[yi]) - 1);
    }
  };
  while (i < na && j < nb) {
    if (a.nodes[i] == b.nodes[j]) {
      sum += run_sum(a, i, i + 1);
      ++i;
      ++j;
    } else if (a.nodes[i] < b.nodes[j]) {
      step(a, i, b, j);
    } else {
      step(b, j, a, i);
    }
  }
  return sum;
}

// Σ over the nodes of `nodes` inside some subtree of `tops` (none inside another's).
Amount inside(const SummedNodes& nodes, const SummedNodes& tops) {
  Amount sum = 0;
  std::size_t i = 0, j = 0;
  while (i < nodes.nodes.size() && j < tops.nodes.size()) {
    const NodeId n = nodes.nodes[i], t = tops.nodes[j];
    const NodeId end = tops.ends[j];
    if (n < t) {
      i = skip_to(nodes, i, t);
    } else if (n < end) {
      const std::size_t stop = skip_to(nodes, i, end);
      sum += run_sum(nodes, i, stop);
      i = stop;
      ++j;
    } else {
      // The top that may hold n is the last one at or before it.
      j = std::max(j + 1, skip_to(tops, j + 1, n + 1) - 1);
    }
  }
  return sum;
}

// Σ over the nodes in both lists.
Amount common(const SummedNodes& a, const SummedNodes& b) {
  Amount sum = 0;
  std::size_t i = 0, j = 0;
  while (i < a.nodes.size() && j < b.nodes.size()) {
    if (a.nodes[i] < b.nodes[j]) {
      i = skip_to(a, i, b.nodes[j]);
    } else if (b.nodes[j] < a.nodes[i]) {
      j = skip_to(b, j, a.nodes[i]);
    } else {
      sum += run_sum(a, i, i + 1);
      ++i;
      ++j;
    }
  }
  return sum;
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

SummedNodes subtrees(const CallTree& tree, std::vector<NodeId> nodes) {
  SummedNodes out = summed(std::move(nodes), [&](NodeId n) { return Amount{tree.cum_cost(n)}; });
  out.ends.reserve(out.nodes.size());
  for (NodeId n : out.nodes) out.ends.push_back(tree.subtree_end(n));
  return out;
}

SummedNodes single_nodes(const CallTree& tree, std::vector<NodeId> nodes) {
  return summed(std::move(nodes), [&](NodeId n) { return Amount{tree.cost(n)}; });
}

Amount Region::base() const {
  Amount sum = along.total();
  for (const auto& [m, base] : methods) sum += base;
  return sum;
}

Region make_region(const CallTree& tree, std::vector<NodeId> tops, std::vector<NodeId> outside,
                   std::vector<std::pair<MethodId, Amount>> methods, std::vector<NodeId> along) {
  Region r{subtrees(tree, std::move(tops)),
           single_nodes(tree, std::move(outside)),
           std::move(methods),
           single_nodes(tree, std::move(along)),
           {}};
  auto& by_method = r.along_by_method;
  for (NodeId n : r.along.nodes) by_method.emplace_back(tree.method(n), tree.cost(n));
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
  return r;
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

}  // namespace

Amount shared_cum(const Region& a, const Region& b, const TopIndex& b_index) {
  // For each of a's tops q: the top of b that holds it shares q's whole subtree; otherwise
  // b's tops inside q's subtree share theirs (one at q itself included), a run of b's list.
  // Neither list nests, so no pair is counted twice (as in nested_subtrees).
  const SummedNodes& q = a.tops;
  const SummedNodes& tops = b.tops;
  const NodeId* nodes = tops.nodes.data();
  const NodeId* last = nodes + tops.nodes.size();
  const std::uint32_t* first = b_index.first.data();
  Amount sum = 0;
  for (std::size_t k = 0; k < q.nodes.size(); ++k) {
    const NodeId top = q.nodes[k];
    const std::size_t block = top >> b_index.shift;
    const NodeId* at = skip_few(nodes + first[block], nodes + first[block + 1], top);
    const auto i = static_cast<std::size_t>(at - nodes);
    // When a top of b holds q, b's next top starts after q's subtree: the run is empty.
    const auto j = static_cast<std::size_t>(skip_few(at, last, q.ends[k]) - nodes);
    const bool held = i > 0 && tops.ends[i - 1] > top;
    sum += held ? run_sum(q, k, k + 1) : run_sum(tops, i, j);
  }
  return sum + shared_single_nodes(a, b);
}

MergedTops merge_tops(std::span<const Region* const> regions) {
  // Pairwise rounds of linear merges: O(entries · log regions), reading each list in order.
  using Entries = std::vector<MergedTops::Entry>;
  std::vector<Entries> level;
  for (std::uint32_t i = 0; i < regions.size(); ++i) {
    Entries one;
    one.reserve(regions[i]->tops.nodes.size());
    const SummedNodes& tops = regions[i]->tops;
    for (std::uint32_t k = 0; k < tops.nodes.size(); ++k) one.push_back({tops.nodes[k], tops.ends[k], i, k});
    level.push_back(std::move(one));
  }
  const auto by_node = [](const MergedTops::Entry& x, const MergedTops::Entry& y) { return x.node < y.node; };
  while (level.size() > 1) {
    std::vector<Entries> next;
    for (std::size_t i = 0; i < level.size(); i += 2) {
      if (i + 1 == level.size()) {
        next.push_back(std::move(level[i]));
        break;
      }
      Entries both(level[i].size() + level[i + 1].size());
      std::merge(level[i].begin(), level[i].end(), level[i + 1].begin(), level[i + 1].end(), both.begin(), by_node);
      next.push_back(std::move(both));
    }
    level = std::move(next);
  }
  return {level.empty() ? Entries() : std::move(level.front())};
}

void shared_cum_all(std::span<const Region* const> regions, const MergedTops& merged, const Region& r,
                    std::span<Amount> out) {
  // Walking r's tops q in order: an entry passed before q whose subtree holds q shares all of
  // q's subtree; at most one per region can (a region's tops are disjoint), and one that ends
  // before q ends before every later top too, so only those still open when passed are kept.
  // Entries inside q's subtree share theirs (an entry at q itself is inside, counted once).
  std::fill(out.begin(), out.end(), Amount{0});
  const std::size_t count = regions.size();
  std::vector<NodeId> open_end(count, 0);
  std::vector<std::uint32_t> open;  // regions with an entry that may hold the current top
  std::vector<char> listed(count, 0);
  const auto& entries = merged.entries;
  std::size_t e = 0;
  const SummedNodes& q = r.tops;
  for (std::size_t k = 0; k < q.nodes.size(); ++k) {
    const NodeId top = q.nodes[k], end = q.ends[k];
    for (; e < entries.size() && entries[e].node < top; ++e) {
      if (entries[e].end <= top) continue;
      const std::uint32_t i = entries[e].region;
      open_end[i] = entries[e].end;
      if (!listed[i]) {
        listed[i] = 1;
        open.push_back(i);
      }
    }
    const Amount whole = run_sum(q, k, k + 1);
    for (std::size_t j = 0; j < open.size();) {
      if (open_end[open[j]] > top) {
        out[open[j]] += whole;
        ++j;
      } else {
        listed[open[j]] = 0;
        open[j] = open.back();
        open.pop_back();
      }
    }
    for (; e < entries.size() && entries[e].node < end; ++e) {
      const MergedTops::Entry& inner = entries[e];
      out[inner.region] += run_sum(regions[inner.region]->tops, inner.index, inner.index + 1);
    }
  }
  for (std::size_t i = 0; i < count; ++i) out[i] += shared_single_nodes(*regions[i], r);
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
