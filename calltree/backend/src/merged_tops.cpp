// All the regions' tops merged (MergedTops, node_region.h): made, remade when some regions change,
// checkpointed, and swept against one region for its shared cum with every one of them.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>
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
    out.entries.push_back({static_cast<NodeId>(key >> 32), tops.ends[k], i, kNoHolder});
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
    entries[kept] = {entries[e].node, entries[e].end, region, kNoHolder};
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
  auto& entries = merged.entries;
  // Holders: the entries still open when each is reached, a chain of nested subtrees.
  std::vector<std::uint32_t> open;
  for (std::uint32_t e = 0; e < entries.size(); ++e) {
    while (!open.empty() && entries[open.back()].end <= entries[e].node) open.pop_back();
    entries[e].holder = open.empty() ? kNoHolder : open.back();
    open.push_back(e);
  }
  merged.with_single_nodes.clear();
  for (std::uint32_t i = 0; i < regions.size(); ++i)
    if (!regions[i]->outside.nodes.empty()) merged.with_single_nodes.push_back(i);
  MergedTops::Checkpoints& cp = merged.checkpoints;
  cp = {};
  const std::size_t count = regions.size();
  const bool wide = std::any_of(regions.begin(), regions.end(), [](const Region* r) { return r->tops.sums.wide(); });
  // A row's sums are prefix sums of the regions' own lists: when every one of those fits 32 bits,
  // so do the rows, and a stride of half the entries holds them in the same bytes.
  const bool narrow = !wide && std::all_of(regions.begin(), regions.end(), [](const Region* r) {
    for (std::size_t k = 0; k < r->tops.sums.size(); ++k)
      if (r->tops.sums.narrow(k) < std::numeric_limits<std::int32_t>::min() ||
          r->tops.sums.narrow(k) > std::numeric_limits<std::int32_t>::max())
        return false;
    return true;
  });
  cp.stride = std::bit_ceil(std::max<std::size_t>(2, narrow ? count : 2 * count));
  cp.step = std::min<std::size_t>(16, cp.stride);
  cp.node.reserve((entries.size() + cp.step - 1) / cp.step);
  for (std::size_t e = 0; e < entries.size(); e += cp.step) cp.node.push_back(entries[e].node);
  if (wide) return;
  const auto fill = [&](auto& rows) {
    rows.reserve((entries.size() + cp.stride - 1) / cp.stride * count);
    std::vector<std::int64_t> sum(count, 0);  // of each region's entries passed
    for (std::size_t e = 0; e < entries.size(); ++e) {
      if (e % cp.stride == 0)
        for (const std::int64_t v : sum)
          rows.push_back(static_cast<typename std::decay_t<decltype(rows)>::value_type>(v));
      sum[entries[e].region] += merged.cums[e];
    }
  };
  if (narrow)
    fill(cp.narrow_sums);
  else
    fill(cp.wide_sums);
}

namespace {

// shared_cum_all with the checkpoints' rows of one width (none if `rows` is empty).
template <typename Row>
void sweep_all(std::span<const Region* const> regions, const MergedTops& merged, std::span<const Row> rows,
               const Region& r, std::span<Amount> out) {
  // For each of r's tops q: the entries whose subtree holds q share all of q's subtree (at most
  // one per region: a region's tops are disjoint), and the entries inside q's subtree share
  // theirs (an entry at q itself is inside, counted once).
  std::fill(out.begin(), out.end(), Amount{0});
  const std::size_t count = regions.size();
  const auto& entries = merged.entries;
  const MergedTops::Checkpoints& cp = merged.checkpoints;
  const std::size_t step = cp.step, stride = cp.stride;
  // A summary of a top per 64 entries or more (a hot method's 189k tops among 3M entries at 10M
  // nodes) is swept as one walk of the entries in order, O(entries), at most 64 a top: each place
  // is found by reading on, not by the search of the indexed nodes (73k of those tops lie 9-32
  // entries past the subtree before), and each subtree's entries are added as they are passed,
  // not bridged to the run before, whose gap was then read again and taken back out. That sweep
  // took 10.3 ms where it took 13.3 (bench/LOG.md, "Labels").
  const bool dense = r.tops.nodes.size() * 64 >= entries.size();
  // The first entry at or after `from` whose node is x or more, given that every entry before
  // `from` is below x: the last indexed node below x, then the entries after it in order.
  const auto place = [&](std::size_t from, NodeId x) -> std::size_t {
    // A place a few entries on is found without the search.
    for (const std::size_t near = dense ? entries.size() : std::min(from + 8, entries.size()); from < near; ++from)
      if (entries[from].node >= x) return from;
    if (from == entries.size()) return from;
    const NodeId* nodes = cp.node.data();
    const auto after =
        static_cast<std::size_t>(sweep::gallop(nodes + from / step + 1, nodes + cp.node.size(), x) - nodes);
    std::size_t at = std::max(from, (after - 1) * step);
    while (at < entries.size() && entries[at].node < x) ++at;
    return at;
  };
  const auto add_run = [&](std::size_t from, std::size_t to) {
    for (std::size_t at = from; at < to; ++at) out[entries[at].region] += merged.cums[at];
  };
  const auto take_run = [&](std::size_t from, std::size_t to) {
    for (std::size_t at = from; at < to; ++at) out[entries[at].region] -= merged.cums[at];
  };
  // Adds the sums of entries [from, to): entry by entry when the run is short or there are no
  // rows, else each region's sums before `to` less those before `from`, each end taken from its
  // nearer checkpoint and the entries between (half a stride at most).
  const auto add_entries = [&](std::size_t from, std::size_t to) {
    if (rows.empty() || to - from <= stride) {
      add_run(from, to);
      return;
    }
    const std::size_t checkpoints = rows.size() / count;
    const auto nearer = [&](std::size_t at) { return std::min((at + stride / 2) / stride, checkpoints - 1); };
    const std::size_t a = nearer(from), b = nearer(to);
    if (a * stride < from)
      take_run(a * stride, from);
    else
      add_run(from, a * stride);
    if (b * stride < to)
      add_run(b * stride, to);
    else
      take_run(to, b * stride);
    const Row* last = &rows[b * count];
    const Row* first = &rows[a * count];
    for (std::size_t i = 0; i < count; ++i) out[i] += Amount{last[i]} - first[i];
  };
  // The entries inside r's subtrees are added by runs [run_from, run_to): a subtree whose first
  // entry is few entries past the run's end extends the run, those few taken back out (the
  // rows of a run are read once, not for each subtree); not for a dense summary (above).
  const std::size_t bridge = dense ? 0 : stride / 2;
  std::size_t run_from = 0, run_to = 0, e = 0;
  const SummedNodes& q = r.tops;
  for (std::size_t k = 0; k < q.nodes.size(); ++k) {
    const NodeId top = q.nodes[k];
    const std::size_t inside = place(e, top);
    // The holders of the last entry before q, up from the first whose subtree reaches past q.
    std::uint32_t h = inside == 0 ? kNoHolder : static_cast<std::uint32_t>(inside - 1);
    while (h != kNoHolder && entries[h].end <= top) h = entries[h].holder;
    if (h != kNoHolder) {
      const Amount whole = run_sum(q, k, k + 1);
      for (; h != kNoHolder; h = entries[h].holder) out[entries[h].region] += whole;
    }
    e = place(inside, q.ends[k]);
    if (k > 0 && inside - run_to <= bridge) {
      take_run(run_to, inside);
    } else {
      add_entries(run_from, run_to);
      run_from = inside;
    }
    run_to = e;
  }
  add_entries(run_from, run_to);
  if (r.outside.nodes.empty()) {
    for (std::uint32_t i : merged.with_single_nodes) out[i] += shared_single_nodes(*regions[i], r);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] += shared_single_nodes(*regions[i], r);
  }
}

}  // namespace

void shared_cum_all(std::span<const Region* const> regions, const MergedTops& merged, const Region& r,
                    std::span<Amount> out) {
  const MergedTops::Checkpoints& cp = merged.checkpoints;
  if (cp.wide_sums.empty())
    sweep_all(regions, merged, std::span<const std::int32_t>(cp.narrow_sums), r, out);
  else
    sweep_all(regions, merged, std::span<const std::int64_t>(cp.wide_sums), r, out);
}

}  // namespace bn::calltree::region
