#include "region_pairs.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace bn::calltree::region {
namespace {

using iface::Amount;

// The pairs found so far, each once, in the order first met.
class PairSums {
 public:
  void add_cum(std::uint32_t a, std::uint32_t b, Amount amount) { at(a, b).cum += amount; }
  void add_base(std::uint32_t a, std::uint32_t b, Amount amount) { at(a, b).base += amount; }
  std::vector<PairShare> take() {
    std::erase_if(pairs_, [](const PairShare& p) { return p.cum == 0 && p.base == 0; });
    std::sort(pairs_.begin(), pairs_.end(), [](const PairShare& x, const PairShare& y) {
      return std::pair{x.first, x.second} < std::pair{y.first, y.second};
    });
    return std::move(pairs_);
  }

 private:
  PairShare& at(std::uint32_t a, std::uint32_t b) {
    if (b < a) std::swap(a, b);
    const std::uint64_t key = std::uint64_t{a} << 32 | b;
    const auto [it, fresh] = where_.try_emplace(key, pairs_.size());
    if (fresh) pairs_.push_back({a, b, 0, 0});
    return pairs_[it->second];
  }
  std::unordered_map<std::uint64_t, std::size_t> where_;
  std::vector<PairShare> pairs_;
};

// A top (a subtree) or a single node of one region's cum lists.
struct CumEntry {
  NodeId node;
  bool single;  // tops sort before single nodes at the same node: a top there holds the node
  std::uint32_t region;
  NodeId end;  // a top's subtree_end
  Amount amount;
};

// Subtrees nest or are disjoint, and one region's tops do not nest, so the tops open at a node
// (those before it whose subtree holds it) form a chain of distinct regions: a top shares its
// whole cum with each of them, a single node its cost. Single nodes of several regions at one
// node share its cost pairwise.
void sweep_cum(std::span<const Region* const> regions, PairSums& sums) {
  std::vector<CumEntry> entries;
  for (std::uint32_t r = 0; r < regions.size(); ++r) {
    const Region& region = *regions[r];
    for (std::size_t k = 0; k < region.tops.nodes.size(); ++k)
      entries.push_back({region.tops.nodes[k], false, r, region.tops.ends[k], run_sum(region.tops, k, k + 1)});
    // A node of no cost shares none: the root and callers along a path (`main` in every label of
    // `main;...`) would otherwise pair every label with every other.
    for (std::size_t k = 0; k < region.outside.nodes.size(); ++k)
      if (const Amount cost = run_sum(region.outside, k, k + 1); cost != 0)
        entries.push_back({region.outside.nodes[k], true, r, 0, cost});
  }
  std::sort(entries.begin(), entries.end(), [](const CumEntry& x, const CumEntry& y) {
    return std::tuple{x.node, x.single, x.region} < std::tuple{y.node, y.single, y.region};
  });
  std::vector<const CumEntry*> open;
  for (std::size_t i = 0; i < entries.size();) {
    const NodeId node = entries[i].node;
    while (!open.empty() && open.back()->end <= node) open.pop_back();
    if (!entries[i].single) {
      if (entries[i].amount != 0)
        for (const CumEntry* holder : open) sums.add_cum(holder->region, entries[i].region, entries[i].amount);
      open.push_back(&entries[i]);
      ++i;
      continue;
    }
    std::size_t group_end = i;
    while (group_end < entries.size() && entries[group_end].node == node) ++group_end;
    for (std::size_t k = i; k < group_end; ++k) {
      for (const CumEntry* holder : open) sums.add_cum(holder->region, entries[k].region, entries[k].amount);
      for (std::size_t other = k + 1; other < group_end; ++other)
        sums.add_cum(entries[k].region, entries[other].region, entries[k].amount);
    }
    i = group_end;
  }
}

struct Keyed {
  std::uint32_t key;  // a method id or a node
  std::uint32_t region;
  Amount amount;
  auto order() const { return std::pair{key, region}; }
};

// Calls f(from, to) for each run of entries with one key.
template <typename F>
void for_each_group(const std::vector<Keyed>& sorted, F&& f) {
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t end = i;
    while (end < sorted.size() && sorted[end].key == sorted[i].key) ++end;
    f(i, end);
    i = end;
  }
}

// shared_base's three parts, each by one key: methods of both (all their nodes' base); one's
// along nodes of the other's methods; along nodes of both.
void sweep_base(std::span<const Region* const> regions, PairSums& sums) {
  std::vector<Keyed> methods, along;
  for (std::uint32_t r = 0; r < regions.size(); ++r) {
    const Region& region = *regions[r];
    for (const auto& [m, base] : region.methods) methods.push_back({m, r, base});
    for (std::size_t k = 0; k < region.along.nodes.size(); ++k)
      if (const Amount base = run_sum(region.along, k, k + 1); base != 0)
        along.push_back({region.along.nodes[k], r, base});
  }
  const auto by_key = [](const Keyed& x, const Keyed& y) { return x.order() < y.order(); };
  std::sort(methods.begin(), methods.end(), by_key);
  std::sort(along.begin(), along.end(), by_key);
  const auto pairwise = [&](const std::vector<Keyed>& list) {
    for_each_group(list, [&](std::size_t from, std::size_t to) {
      for (std::size_t k = from; k < to; ++k)
        if (list[k].amount != 0)
          for (std::size_t other = k + 1; other < to; ++other)
            sums.add_base(list[k].region, list[other].region, list[k].amount);
    });
  };
  pairwise(methods);
  pairwise(along);
  for (std::uint32_t r = 0; r < regions.size(); ++r) {
    for (const auto& [m, amount] : regions[r]->along_by_method) {
      if (amount == 0) continue;
      auto at =
          std::lower_bound(methods.begin(), methods.end(), m, [](const Keyed& e, MethodId id) { return e.key < id; });
      for (; at != methods.end() && at->key == m; ++at) sums.add_base(r, at->region, amount);
    }
  }
}

}  // namespace

std::vector<PairShare> shared_by_pairs(std::span<const Region* const> regions) {
  PairSums sums;
  sweep_cum(regions, sums);
  sweep_base(regions, sums);
  return sums.take();
}

}  // namespace bn::calltree::region
