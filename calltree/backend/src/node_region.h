#pragma once
// What the cum and base of a summary or a set of summaries count, as sorted node lists with
// prefix sums (internal to the tree backend), so that the cost two of them share is found by
// galloping merges: overlap = cost(region(A) ∩ region(B)), which is the sec. 2.1 definition
// cum(A) + cum(B) - cum(A ∪ B) because the region of a union is the union of the regions.
//
// cum counts the subtrees of `tops` (outermost final nodes) and the `outside` nodes (along
// nodes outside those subtrees); base counts the base cost (CallTree::base_cost) of every node of
// the `methods` (those with a length-1 summary in the set) and of the `along` nodes of other
// methods.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/iface/amount.h"

namespace bn::calltree::region {

// Prefix sums of a list: [i] is the sum of its first i amounts, so any run sums in O(1). Kept in
// 64 bits while every prefix fits (checked as MethodTotals checks its sums, narrow_sums.h), in 128
// from the first that does not: 50 labels of hot methods hold about half a prefix sum per node
// of the tree, and at 16 bytes each those sums set the session's peak memory.
class PrefixSums {
 public:
  PrefixSums() : narrow_{0} {}
  void reserve(std::size_t amounts) { narrow_.reserve(amounts + 1); }
  // Appends the sum so far plus `amount`.
  void add(iface::Amount amount);
  iface::Amount operator[](std::size_t i) const { return wide_.empty() ? iface::Amount{narrow_[i]} : wide_[i]; }
  iface::Amount back() const { return (*this)[size() - 1]; }
  std::size_t size() const { return wide_.empty() ? narrow_.size() : wide_.size(); }
  bool wide() const { return !wide_.empty(); }
  // [i] of a list that is not wide().
  std::int64_t narrow(std::size_t i) const { return narrow_[i]; }
  void shrink_to_fit() { narrow_.shrink_to_fit(); }

 private:
  std::vector<std::int64_t> narrow_;
  std::vector<iface::Amount> wide_;  // instead of narrow_ once a prefix left 64 bits
};

// A sorted node list with the prefix sums of a per-node amount.
struct SummedNodes {
  std::vector<NodeId> nodes;
  PrefixSums sums;  // nodes.size() + 1 entries
  // For subtree lists, each node's subtree_end: the sweeps then read only these arrays in
  // order, not the tree's (40 MB each at 10M nodes) at scattered places.
  std::vector<NodeId> ends;
  iface::Amount total() const { return sums.back(); }
};
// The sum over list's entries [from, to).
inline iface::Amount run_sum(const SummedNodes& list, std::size_t from, std::size_t to) {
  return list.sums[to] - list.sums[from];
}
// Subtrees, by cum_cost (tops); single nodes, by cost (outside); along nodes, by base_cost.
SummedNodes subtrees(const CallTree& tree, std::vector<NodeId> nodes);
SummedNodes single_nodes(const CallTree& tree, std::vector<NodeId> nodes);
SummedNodes along_nodes(const CallTree& tree, std::vector<NodeId> nodes);

struct Region {
  SummedNodes tops;                                         // increasing, none inside another's subtree
  SummedNodes outside;                                      // increasing, outside every top's subtree
  std::vector<std::pair<MethodId, iface::Amount>> methods;  // by id, with each method's base
  SummedNodes along;                                        // increasing, of no method in `methods`
  // Σ base_cost of the `along` nodes of each method, by id.
  std::vector<std::pair<MethodId, iface::Amount>> along_by_method;

  iface::Amount cum() const { return tops.total() + outside.total(); }
  iface::Amount base() const;
};

// A region from its lists, each increasing (`methods` by id); fills along_by_method.
Region make_region(const CallTree& tree, std::vector<NodeId> tops, std::vector<NodeId> outside,
                   std::vector<std::pair<MethodId, iface::Amount>> methods, std::vector<NodeId> along);

// The region of the union of two sets from their regions (the region of a union is the union
// of the regions): the outermost of both top lists, merged with the subtree ends and cums the
// lists hold, so a label that gains a summary reads none of the tree's arrays at its old tops.
// O(a + b) plus the single-node lists' (usually short) tree reads.
Region united(const CallTree& tree, const Region& a, const Region& b);

// What both regions count, itself a region: for cum, the inner subtree of each nested pair of
// tops, each one's single nodes inside the other's subtrees and the single nodes of both; for
// base, the methods of both, each one's along nodes of the other's methods and the along nodes
// of both. Galloping merges of the lists, subtree ends and cums taken from them: O(min · log)
// for lists of unequal size, plus a tree read per along node.
Region intersection(const CallTree& tree, const Region& a, const Region& b);

// cost(cum region of a ∩ cum region of b), and the same of the base regions.
iface::Amount shared_cum(const Region& a, const Region& b);
// The part of shared_cum that is not in subtrees of both: a's single nodes in b's subtrees, the
// reverse, and single nodes of both.
iface::Amount shared_single_nodes(const Region& a, const Region& b);

// Where a region's tops start in each block of 2^shift node numbers: first[b] is the position
// of its first top at or after node b << shift. A node's place among the tops is then a jump
// and a short search in its block, so a list can be placed among another in what the shorter
// costs (a merge walks both: 49 merges of 10^5 tops were most of `labels` after a label changed).
struct TopIndex {
  unsigned shift = 0;
  std::vector<std::uint32_t> first;  // (node_count >> shift) + 2 entries
};
// About one block per top: the index is no larger than the list it indexes.
TopIndex index_tops(const CallTree& tree, const SummedNodes& tops);
// shared_cum(a, b), given b's index: O(a's tops + a's and b's single nodes), so with a the
// region of fewer tops, what the smaller region costs.
iface::Amount shared_cum(const Region& a, const Region& b, const TopIndex& b_index);
iface::Amount shared_base(const Region& a, const Region& b);

// Which nodes lie in a region's top subtrees, a bit per node of the tree (n/8 bytes, so kept for
// one set at a time): whether a top of another set lies in one is then a read, not a search.
struct Coverage {
  std::vector<std::uint64_t> bits;
  bool holds(NodeId n) const { return ((bits[n / 64] >> (n % 64)) & 1U) != 0; }
  // Whether any node of [from, to) is held; O((to - from) / 64).
  bool any_in(NodeId from, NodeId to) const;
};
Coverage cover(const CallTree& tree, const SummedNodes& tops);
// shared_cum(*others[i], b) for every i, into out[i], given b's index and coverage: O(the others'
// tops), each a bit read; only a top outside b's subtrees holding some of them is placed among
// b's tops by the index. The walks go together through the tree a stretch of node numbers at a
// time, so that b's lists are read from the cache by all of them (49 walks of 10^5 tops, each
// over all of b's lists, were most of `labels` after a label changed).
void shared_cum_each(std::span<const Region* const> others, const Region& b, const TopIndex& b_index,
                     const Coverage& b_cover, std::span<iface::Amount> out);

// The tops of several regions in node order, each entry naming its region (index into the list
// given to merge_tops) and its holder, with its cum beside it: 24 bytes an entry (50 labels of hot
// methods hold 3M tops at 10M nodes, and these entries set the session's peak memory).
struct MergedTops {
  struct Entry {
    NodeId node;
    NodeId end;  // its subtree_end
    std::uint32_t region;
    // The last entry before it whose subtree holds its node (kNoHolder if none). Subtrees nest or
    // are disjoint, so the entries whose subtree holds a node are the last entry before it and
    // its holders, up the chain (one per region at most): a sweep reads them, a cache miss each,
    // where it walked the entries before each of its tops. In the entry, so one miss a step.
    std::uint32_t holder;
  };
  std::vector<Entry> entries;
  // Each entry's cum (its top's cum_cost), beside it: a sweep adds the entries inside a summary's
  // subtree in order from here, where each read of its region's own sums was a cache miss (two
  // thirds of a labelled `select`'s sweep at 1.1M nodes). 8 bytes an entry.
  std::vector<std::int64_t> cums;
  // The regions with single nodes (`outside`): a summary of none shares single nodes with those
  // only (labels of methods have none; each region's lists were a cache miss or more, 50 labels
  // 8-13 us of a first `select`'s sweep at 1.1M nodes).
  std::vector<std::uint32_t> with_single_nodes;
  // Where a sweep finds a node's place among the entries: the node of every `step`-th entry (a
  // search there, then a few entries read in order, where a search of the entries read a cache
  // line a probe). And what it knows every `stride`-th entry (a multiple of step), so that it
  // sums a long run of entries from two rows: for checkpoint c, before entry c * stride, each
  // region's sum of cum over its entries before it (all regions' side by side: one read of the
  // lot, where a region's own list is a cache miss per region). The rows are 32-bit when every
  // prefix sum of every region fits (the rows are some of those), at half the stride: the same
  // bytes, half the entries walked at each end of a run.
  struct Checkpoints {
    std::size_t step = 0, stride = 0;
    std::vector<NodeId> node;  // [c] = entries[c * step].node
    // [c * regions + i], in one of the two; none when a region's sums are wide.
    std::vector<std::int32_t> narrow_sums;
    std::vector<std::int64_t> wide_sums;
  } checkpoints;
};
inline constexpr std::uint32_t kNoHolder = ~std::uint32_t{0};
MergedTops merge_tops(std::span<const Region* const> regions);
// Fills the entries' holders, merged.with_single_nodes and merged.checkpoints for `merged` of
// `regions` (merge_tops, remerge_tops): one pass over the entries, a stride of twice the regions'
// count or up to twice that (8 bytes a region a stride), or of half that with 32-bit rows, a node
// every 16 entries (or every stride, if shorter).
void checkpoint_tops(MergedTops& merged, std::span<const Region* const> regions);
// Makes `merged`, of earlier regions, merge_tops(regions): the one numbered i there is
// regions[now_at[i]], or gone (kGone); the `fresh` ones (by number in regions) are all the others.
// O(merged + fresh's tops · log |fresh|), in place: a label changed is merged in, the others kept.
inline constexpr std::uint32_t kGone = ~std::uint32_t{0};
void remerge_tops(MergedTops& merged, std::span<const std::uint32_t> now_at, std::span<const Region* const> regions,
                  std::span<const std::uint32_t> fresh);
// shared_cum(*regions[i], r) for every i, into out[i]: one sweep over `merged` (of the same
// regions, with its holders and checkpoints) and r's tops for the shared subtrees, instead of one
// merge or one placement per top per region; the single nodes by region. Each of r's tops is
// placed among the entries by a search of the indexed nodes and a few entries read in order, its
// holders are read up their chain, and the entries inside r's subtrees are summed by runs:
// neighbouring subtrees with few entries between them make one run less those entries, and a
// long run is two checkpoint rows and the entries between each end and its nearer checkpoint.
// O(r's tops · (log entries + regions + stride)) at most; without rows (a region's sums are
// wide), the entries inside are walked.
void shared_cum_all(std::span<const Region* const> regions, const MergedTops& merged, const Region& r,
                    std::span<iface::Amount> out);

}  // namespace bn::calltree::region
