// All the regions' tops merged (MergedTops, node_region.h): made, remade when some regions change,
// checkpointed, and swept against one region for its shared cum with every one of them.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "node_region.h"
#include "node_sweep.h"

namespace bn::calltree::region {

using iface::Amount;

namespace {

// The tops of regions[i] for each i of `which`, merged, each entry naming its i.
MergedTops merged_of(std::span<const Region* const> regions, std::span<const std::uint32_t> which) {
  // Rounds of linear merges of neighbouring runs of 8-byte keys (node, region) between two
  // buffers made once, O(entries · log lists), each round one pass in order (a fresh buffer per
  // merge cost 0.7 s of page faults for 50 labels of 10^5 tops at 10M nodes); the entries are
  // written from the last round's keys once the other buffer is freed.
  using Keys = std::vector<std::uint64_t>;
  std::size_t total = 0;
  for (std::uint32_t i : which) total += regions[i]->tops.nodes.size();
  Keys from, to;
  from.reserve(total);
  std::vector<std::size_t> bounds{0};
  for (std::uint32_t i : which) {
    for (NodeId n : regions[i]->tops.nodes) from.push_back(std::uint64_t{n} << 32 | i);
    bounds.push_back(from.size());
  }
  if (bounds.size() > 2) to.resize(total);
  const auto at = [](Keys& keys, std::size_t k) { return keys.begin() + static_cast<std::ptrdiff_t>(k); };
  while (bounds.size() > 2) {
    std::vector<std::size_t> next{0};
    for (std::size_t b = 0; b + 1 < bounds.size(); b += 2) {
      const std::size_t mid = bounds[b + 1], last = b + 2 < bounds.size() ? bounds[b + 2] : mid;
      std::merge(at(from, bounds[b]), at(from, mid), at(from, mid), at(from, last), at(to, bounds[b]));
      next.push_back(last);
    }
    from.swap(to);
    bounds = std::move(next);
  }
  to = Keys();
  MergedTops out;
  // Room for a label to grow by a sixteenth before remerge_tops needs a new buffer.
  out.entries.reserve(total + total / 16);
  out.cums.reserve(total + total / 16);
  std::vector<std::uint32_t> next(regions.size(), 0);  // each region's next top
  for (const std::uint64_t key : from) {
    const auto i = static_cast<std::uint32_t>(key);
    const SummedNodes& tops = regions[i]->tops;
    const std::uint32_t k = next[i]++;
    out.entries.push_back({static_cast<NodeId>(key >> 32), tops.ends[k], i});
    // One top's cum is its node's cum_cost, a Cost: it fits 64 bits even where the sums do not.
    out.cums.push_back(static_cast<std::int64_t>(run_sum(tops, k, k + 1)));
  }
  return out;
}

}  // namespace

MergedTops merge_tops(std::span<const Region* const> regions) {
  std::vector<std::uint32_t> all(regions.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return merged_of(regions, all);
}

void remerge_tops(MergedTops& merged, std::span<const std::uint32_t> now_at, std::span<const Region* const> regions,
                  std::span<const std::uint32_t> fresh) {
  // In the merge's own buffer: the kept entries renumbered and packed to the front, then the
  // fresh tops merged in from the back. A new buffer would cost more than the passes: the
  // kernel hands out fresh pages zeroed (0.1 s for the 50 MB of 50 labels at 10M nodes).
  const MergedTops added = merged_of(regions, fresh);
  std::vector<MergedTops::Entry>& entries = merged.entries;
  std::vector<std::int64_t>& cums = merged.cums;
  std::size_t kept = 0;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const std::uint32_t region = now_at[entries[e].region];
    if (region == kGone) continue;
    entries[kept] = {entries[e].node, entries[e].end, region};
    cums[kept++] = cums[e];
  }
  const std::size_t size = kept + added.entries.size();
  if (size > entries.capacity()) {  // room for the next to grow
    entries.reserve(size + size / 16);
    cums.reserve(size + size / 16);
  }
  entries.resize(size);
  cums.resize(size);
  std::size_t i = kept, j = added.entries.size(), k = size;
  while (j > 0) {
    --k;
    if (i > 0 && entries[i - 1].node > added.entries[j - 1].node) {
      entries[k] = entries[--i];
      cums[k] = cums[i];
    } else {
      entries[k] = added.entries[--j];
      cums[k] = added.cums[j];
    }
  }
}

void checkpoint_tops(MergedTops& merged, std::span<const Region* const> regions) {
  MergedTops::Checkpoints& cp = merged.checkpoints;
  cp = {};
  if (std::any_of(regions.begin(), regions.end(), [](const Region* r) { return r->tops.sums.wide(); })) return;
  const std::size_t count = regions.size();
  const auto& entries = merged.entries;
  cp.stride = std::bit_ceil(std::max<std::size_t>(2, 2 * count));
  const std::size_t checkpoints = (entries.size() + cp.stride - 1) / cp.stride;
  cp.node.reserve(checkpoints);
  cp.sums.reserve(checkpoints * count);
  cp.open_from.reserve(checkpoints + 1);
  // Each region's sum so far is a prefix of its own sums, all of which fit 64 bits (not wide).
  std::vector<std::int64_t> sum(count, 0);  // of each region's entries passed
  std::vector<NodeId> last_end(count, 0);   // the subtree end of its last one passed
  for (std::size_t e = 0; e < entries.size(); ++e) {
    if (e % cp.stride == 0) {
      const NodeId node = entries[e].node;
      cp.node.push_back(node);
      cp.open_from.push_back(static_cast<std::uint32_t>(cp.open.size()));
      cp.sums.insert(cp.sums.end(), sum.begin(), sum.end());
      for (std::uint32_t i = 0; i < count; ++i)
        if (last_end[i] > node) cp.open.push_back({0, last_end[i], i});
    }
    const std::uint32_t i = entries[e].region;
    sum[i] += merged.cums[e];
    last_end[i] = entries[e].end;
  }
  cp.open_from.push_back(static_cast<std::uint32_t>(cp.open.size()));
}

void shared_cum_all(std::span<const Region* const> regions, const MergedTops& merged, const Region& r,
                    std::span<Amount> out) {
  // Walking r's tops q in order: an entry passed before q whose subtree holds q shares all of
  // q's subtree; at most one per region can (a region's tops are disjoint), and one that ends
  // before q ends before every later top too, so only those still open when passed are kept.
  // Entries inside q's subtree share theirs (an entry at q itself is inside, counted once).
  // Entries inside q's subtree end inside it too, so they never hold a later top.
  std::fill(out.begin(), out.end(), Amount{0});
  const std::size_t count = regions.size();
  std::vector<NodeId> open_end(count, 0);
  std::vector<std::uint32_t> open;  // regions with an entry that may hold the current top
  std::vector<char> listed(count, 0);
  const auto& entries = merged.entries;
  const MergedTops::Checkpoints& cp = merged.checkpoints;
  const std::size_t stride = cp.stride;
  std::size_t e = 0;
  // The last checkpoint past entry e whose node is below x (every entry before it is too), or 0.
  const auto checkpoint_before = [&](NodeId x) -> std::size_t {
    if (stride == 0) return 0;
    const std::size_t after = e / stride + 1;
    if (after >= cp.node.size() || cp.node[after] >= x) return 0;
    const NodeId* nodes = cp.node.data();
    return static_cast<std::size_t>(sweep::gallop(nodes + after, nodes + cp.node.size(), x) - nodes) - 1;
  };
  // Entries [from, to) inside the current top's subtree share their cum; entries a checkpoint's
  // sums counted that are not inside are taken back out.
  const auto add_run = [&](std::size_t from, std::size_t to) {
    for (std::size_t at = from; at < to; ++at) out[entries[at].region] += merged.cums[at];
  };
  const auto take_run = [&](std::size_t from, std::size_t to) {
    for (std::size_t at = from; at < to; ++at) out[entries[at].region] -= merged.cums[at];
  };
  const SummedNodes& q = r.tops;
  for (std::size_t k = 0; k < q.nodes.size(); ++k) {
    const NodeId top = q.nodes[k], end = q.ends[k];
    // Between r's subtrees: what is open at the checkpoint replaces what the skipped entries left.
    if (const std::size_t c = checkpoint_before(top); c != 0) {
      for (const std::uint32_t i : open) listed[i] = 0;
      open.clear();
      for (std::uint32_t o = cp.open_from[c]; o < cp.open_from[c + 1]; ++o) {
        const std::uint32_t i = cp.open[o].region;
        open_end[i] = cp.open[o].end;
        listed[i] = 1;
        open.push_back(i);
      }
      e = c * stride;
    }
    for (; e < entries.size() && entries[e].node < top; ++e) {
      const std::uint32_t i = entries[e].region;
      if (entries[e].end <= top) continue;
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
    // Inside q's subtree, entries [e, past): when a checkpoint lies between, the sums before
    // `past` less those before e, each taken from the nearer checkpoint and the entries between
    // it and the position (half a stride at most each way, where the walk from the checkpoint
    // before was up to a whole one); else entry by entry.
    if (const std::size_t c = checkpoint_before(end); c != 0) {
      const std::size_t checkpoints = cp.node.size();
      // The checkpoint nearer e, at or after it (`from`) or before it.
      std::size_t from = (e + stride - 1) / stride;
      if (from * stride - e <= stride / 2) {
        add_run(e, from * stride);
      } else {
        --from;
        take_run(from * stride, e);
      }
      const std::size_t block_end = std::min((c + 1) * stride, entries.size());
      const std::size_t past =
          static_cast<std::size_t>(std::partition_point(entries.begin() + static_cast<std::ptrdiff_t>(c * stride),
                                                        entries.begin() + static_cast<std::ptrdiff_t>(block_end),
                                                        [&](const MergedTops::Entry& x) { return x.node < end; }) -
                                   entries.begin());
      // The checkpoint nearer `past`, before it (`to`) or after it.
      std::size_t to = c;
      if (past - c * stride <= stride / 2 || c + 1 >= checkpoints) {
        add_run(c * stride, past);
      } else {
        ++to;
        take_run(past, to * stride);
      }
      const std::int64_t* last = &cp.sums[to * count];
      const std::int64_t* first = &cp.sums[from * count];
      for (std::size_t i = 0; i < count; ++i) out[i] += Amount{last[i]} - first[i];
      e = past;
    } else {
      for (; e < entries.size() && entries[e].node < end; ++e) out[entries[e].region] += merged.cums[e];
    }
  }
  for (std::size_t i = 0; i < count; ++i) out[i] += shared_single_nodes(*regions[i], r);
}

}  // namespace bn::calltree::region
