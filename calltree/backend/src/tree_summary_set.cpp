// TreeProfile's summary sets (iface::SummarySet): a label's union measured once, its overlap
// with a summary or another label then the cost of what both regions hold (node_region.h), not
// of two unions. The REPL shows every label's overlap with every summary it details (seed 004
// sec. 2.3), so with 50 labels a `path` asked 200 unions of it before.
#include <algorithm>
#include <map>
#include <memory>

#include "bn/calltree/tree_profile.h"
#include "node_region.h"
#include "region_pairs.h"

namespace bn::calltree {

using iface::Amount;
using iface::Summary;

class TreeProfile::TreeSummarySet final : public iface::SummarySet {
 public:
  TreeSummarySet(TreeProfile& profile, std::span<const Summary> S, region::Region region)
      : iface::SummarySet(profile, S),
        owner_(profile),
        region_(std::move(region)),
        index_(region::index_tops(profile.tree_, region_.tops)),
        serial_(++profile.summary_sets_made_) {}

  Amount total_cum() override { return region_.cum(); }
  Amount total_base() override { return region_.base(); }
  iface::Overlap overlap(Summary s) override {
    if (is_pattern(s)) return iface::SummarySet::overlap(s);  // no region: counted by the interface's formulas
    const std::shared_ptr<const region::Region> r = owner_.region_of(s);
    return {region::shared_cum(region_, *r), region::shared_base(region_, *r)};
  }
  iface::Overlap overlap(iface::SummarySet& other) override {
    const auto* same = dynamic_cast<const TreeSummarySet*>(&other);
    if (same == nullptr || &same->owner_ != &owner_) return iface::SummarySet::overlap(other);
    // The set of fewer tops is placed among the other's.
    const bool fewer = region_.tops.nodes.size() <= same->region_.tops.nodes.size();
    const Amount cum = fewer ? region::shared_cum(region_, same->region_, same->index_)
                             : region::shared_cum(same->region_, region_, index_);
    return {cum, region::shared_base(region_, same->region_)};
  }

 private:
  friend class TreeProfile;
  TreeProfile& owner_;
  region::Region region_;
  region::TopIndex index_;  // of region_'s tops
  std::uint64_t serial_;    // which set of this profile it is, for the merged tops' cache
};

std::unique_ptr<iface::SummarySet> TreeProfile::summary_set(std::span<const Summary> S) {
  // A sequence with gaps or aspects has no node region (its satisfying stacks are marked per
  // pass, tree_profile_patterns.cpp): such a set is measured by the interface's formulas.
  if (std::any_of(S.begin(), S.end(), is_pattern)) return iface::Profile::summary_set(S);
  return std::make_unique<TreeSummarySet>(*this, S, region_of(S));
}

std::unique_ptr<iface::SummarySet> TreeProfile::summary_set_from(iface::SummarySet& earlier,
                                                                 std::span<const Summary> S) {
  const auto* mine = dynamic_cast<const TreeSummarySet*>(&earlier);
  if (mine == nullptr || &mine->owner_ != this) return summary_set(S);
  std::vector<Summary> added(S.begin(), S.end()), had(earlier.members().begin(), earlier.members().end());
  std::sort(added.begin(), added.end());
  std::sort(had.begin(), had.end());
  if (!std::includes(added.begin(), added.end(), had.begin(), had.end())) return summary_set(S);
  added.erase(std::set_difference(added.begin(), added.end(), had.begin(), had.end(), added.begin()), added.end());
  added.erase(std::unique(added.begin(), added.end()), added.end());
  if (std::any_of(added.begin(), added.end(), is_pattern)) return summary_set(S);
  // The summary labelled is usually the one just shown, whose region is kept (region_of(s)).
  region::Region grown = added.empty()       ? mine->region_
                         : added.size() == 1 ? region::united(tree_, mine->region_, *region_of(added.front()))
                                             : region::united(tree_, mine->region_, region_of(added));
  return std::make_unique<TreeSummarySet>(*this, S, std::move(grown));
}

std::vector<iface::Overlap> TreeProfile::set_overlaps(iface::SummarySet& set,
                                                      std::span<iface::SummarySet* const> others) {
  const auto* mine = dynamic_cast<const TreeSummarySet*>(&set);
  if (mine == nullptr || &mine->owner_ != this) return iface::Profile::set_overlaps(set, others);
  // The sets of at most a few times its tops walk together against its coverage; the others
  // place its tops among theirs by their index, one by one.
  const std::size_t tops = mine->region_.tops.nodes.size();
  std::vector<const region::Region*> walked;
  std::vector<std::size_t> where;
  std::vector<iface::Overlap> out(others.size());
  for (std::size_t i = 0; i < others.size(); ++i) {
    const auto* other = dynamic_cast<const TreeSummarySet*>(others[i]);
    if (other != nullptr && &other->owner_ == this && other->region_.tops.nodes.size() <= 4 * tops) {
      walked.push_back(&other->region_);
      where.push_back(i);
    } else {
      out[i] = set.overlap(*others[i]);
    }
  }
  const region::Coverage* coverage = walked.empty() ? nullptr : coverage_of(mine->serial_, mine->region_.tops);
  if (coverage == nullptr) {
    for (std::size_t i : where) out[i] = set.overlap(*others[i]);
    return out;
  }
  std::vector<Amount> cum(walked.size());
  region::shared_cum_each(walked, mine->region_, mine->index_, *coverage, cum);
  for (std::size_t k = 0; k < walked.size(); ++k)
    out[where[k]] = {cum[k], region::shared_base(mine->region_, *walked[k])};
  return out;
}

std::vector<iface::SetPairOverlap> TreeProfile::pair_overlaps(std::span<iface::SummarySet* const> sets) {
  std::vector<const region::Region*> regions;
  for (iface::SummarySet* set : sets) {
    const auto* mine = dynamic_cast<const TreeSummarySet*>(set);
    if (mine == nullptr || &mine->owner_ != this) return iface::Profile::pair_overlaps(sets);
    regions.push_back(&mine->region_);
  }
  std::vector<iface::SetPairOverlap> out;
  for (const region::PairShare& p : region::shared_by_pairs(regions))
    out.push_back({p.first, p.second, {p.cum, p.base}});
  return out;
}

std::vector<iface::Overlap> TreeProfile::grown_set_overlaps(iface::SummarySet& grown, iface::SummarySet& earlier,
                                                            Summary added, std::span<iface::SummarySet* const> others,
                                                            std::span<const iface::Overlap> earlier_with,
                                                            std::span<const iface::Overlap> added_with) {
  const auto* before = dynamic_cast<const TreeSummarySet*>(&earlier);
  std::vector<const TreeSummarySet*> sets;
  for (iface::SummarySet* other : others) sets.push_back(dynamic_cast<const TreeSummarySet*>(other));
  const auto mine = [&](const TreeSummarySet* set) { return set != nullptr && &set->owner_ == this; };
  if (!mine(before) || is_pattern(added) || !std::all_of(sets.begin(), sets.end(), mine) ||
      !adds_one(earlier.members(), added, grown.members()))
    return set_overlaps(grown, others);
  // What a set counts is the union of what its summaries count, and cost is additive over
  // nodes: overlap(E ∪ {s}, M) = overlap(E, M) + overlap(s, M) - cost(E ∩ s ∩ M).
  const region::Region both = region::intersection(tree_, before->region_, *region_of(added));
  std::size_t others_tops = 0;
  for (const TreeSummarySet* set : sets) others_tops += set->region_.tops.nodes.size();
  std::vector<Amount> cum(sets.size());
  // E ∩ s is usually far smaller than the other sets (nothing at all when s calls no method of
  // E nor E's methods s): placed among each one's tops by its index. When it is not (the hottest
  // method inside the subtrees of a label's: 98k of its 189k tops at 10M nodes), it is swept once
  // against all the labels' tops merged, which overlaps() kept for the `path` or `select` of s.
  const std::vector<const TreeSummarySet*> merged = merged_sets(sets, *before);
  if (both.tops.nodes.size() * sets.size() > others_tops && !merged.empty()) {
    std::vector<const region::Region*> regions;
    regions.reserve(merged.size());
    for (const TreeSummarySet* set : merged) regions.push_back(&set->region_);
    std::vector<Amount> all(regions.size());
    region::shared_cum_all(regions, merged_tops_->second, both, all);
    for (std::size_t i = 0; i < sets.size(); ++i)
      cum[i] = all[static_cast<std::size_t>(std::find(merged.begin(), merged.end(), sets[i]) - merged.begin())];
  } else {
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const region::Region& other = sets[i]->region_;
      cum[i] = both.tops.nodes.size() <= other.tops.nodes.size() ? region::shared_cum(both, other, sets[i]->index_)
                                                                 : region::shared_cum(both, other);
    }
  }
  std::vector<iface::Overlap> out;
  for (std::size_t i = 0; i < sets.size(); ++i)
    out.push_back({earlier_with[i].cum + added_with[i].cum - cum[i],
                   earlier_with[i].base + added_with[i].base - region::shared_base(both, sets[i]->region_)});
  return out;
}

std::vector<const TreeProfile::TreeSummarySet*> TreeProfile::merged_sets(std::span<const TreeSummarySet* const> sets,
                                                                         const TreeSummarySet& earlier) const {
  if (!merged_tops_) return {};
  std::vector<const TreeSummarySet*> out;
  for (std::uint64_t serial : merged_tops_->first) {
    const auto same = [&](const TreeSummarySet* set) { return set->serial_ == serial; };
    const auto at = std::find_if(sets.begin(), sets.end(), same);
    if (at != sets.end())
      out.push_back(*at);
    else if (earlier.serial_ == serial)
      out.push_back(&earlier);
    else
      return {};
  }
  for (const TreeSummarySet* set : sets)
    if (std::find(out.begin(), out.end(), set) == out.end()) return {};
  return out;
}

bool TreeProfile::adds_one(std::span<const Summary> earlier, Summary added, std::span<const Summary> grown) {
  std::vector<Summary> expected(earlier.begin(), earlier.end()), got(grown.begin(), grown.end());
  expected.push_back(added);
  for (auto* list : {&expected, &got}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  return expected == got;
}

std::vector<iface::Overlap> TreeProfile::overlaps(Summary s, std::span<iface::SummarySet* const> sets) {
  if (is_pattern(s)) return iface::Profile::overlaps(s, sets);
  std::vector<const TreeSummarySet*> mine;
  std::vector<const region::Region*> regions;
  std::vector<std::uint64_t> serials;
  std::size_t entries = 0;
  for (iface::SummarySet* set : sets) {
    const auto* one = dynamic_cast<const TreeSummarySet*>(set);
    if (one == nullptr || &one->owner_ != this) return iface::Profile::overlaps(s, sets);
    mine.push_back(one);
    regions.push_back(&one->region_);
    serials.push_back(one->serial_);
    entries += one->region_.tops.nodes.size();
  }
  const std::shared_ptr<const region::Region> r = region_of(s);
  std::vector<iface::Overlap> out(sets.size());
  // All the sets' tops merged, once made, are kept until the sets change, with checkpoints that
  // let a sweep skip or sum whole stretches of them: a summary's tops are swept through them in
  // O(its tops · (sets + stride)) at most, a few contiguous reads per top where a placement in
  // each set's lists cost a cache miss or more per top per set (1 ms for the 232 tops of a top
  // suggestion against 50 labels at 1.1M nodes). Without the merge, a summary of few subtrees
  // places them among each set's tops by the set's index, O(its tops) per set; one of many (a hot
  // method's 10^5) makes the merge, O(entries · log sets), and is swept through it.
  const bool merged = merged_tops_ && merged_tops_->first == serials;
  if (!merged && r->tops.nodes.size() * sets.size() <= entries) {
    for (std::size_t i = 0; i < sets.size(); ++i)
      out[i] = {region::shared_cum(*r, mine[i]->region_, mine[i]->index_), region::shared_base(mine[i]->region_, *r)};
    return out;
  }
  std::vector<Amount> cum(sets.size());
  region::shared_cum_all(regions, merged_tops(regions, serials), *r, cum);
  for (std::size_t i = 0; i < sets.size(); ++i) out[i] = {cum[i], region::shared_base(*regions[i], *r)};
  return out;
}

const region::MergedTops& TreeProfile::merged_tops(std::span<const region::Region* const> regions,
                                                   const std::vector<std::uint64_t>& serials) {
  if (merged_tops_ && merged_tops_->first == serials) return merged_tops_->second;
  // A serial names one set for good: the sets merged before that are still asked keep their
  // entries (renumbered), and only the others' tops are merged in. A label changed or added
  // since the last sweep then costs one pass over the merge, not a merge of every label again.
  std::map<std::uint64_t, std::uint32_t> position;
  for (std::uint32_t i = 0; i < serials.size(); ++i) position.emplace(serials[i], i);
  const std::vector<std::uint64_t> none;
  const std::vector<std::uint64_t>& before = merged_tops_ ? merged_tops_->first : none;
  std::vector<std::uint32_t> now_at(before.size(), region::kGone);
  std::vector<char> kept(serials.size(), 0);
  for (std::size_t i = 0; i < before.size(); ++i)
    if (const auto found = position.find(before[i]); found != position.end() && !kept[found->second]) {
      now_at[i] = found->second;
      kept[found->second] = 1;
    }
  std::vector<std::uint32_t> fresh;
  for (std::uint32_t i = 0; i < serials.size(); ++i)
    if (!kept[i]) fresh.push_back(i);
  if (fresh.size() == serials.size()) {
    merged_tops_.reset();  // the old list is not held beside the new
    merged_tops_ = std::make_shared<std::pair<std::vector<std::uint64_t>, region::MergedTops>>(
        serials, region::merge_tops(regions));
  } else {
    region::remerge_tops(merged_tops_->second, now_at, regions, fresh);
    merged_tops_->first = serials;
  }
  region::checkpoint_tops(merged_tops_->second, regions);
  return merged_tops_->second;
}

const region::Coverage* TreeProfile::coverage_of(std::uint64_t serial, const region::SummedNodes& tops) {
  if (coverage_ && coverage_->first == serial) return &coverage_->second;
  // A bitmap of the tree costs what walking its tops costs when there is a top per 64 nodes.
  if (tops.nodes.size() < tree_.node_count() / 64) return nullptr;
  coverage_ = std::make_shared<std::pair<std::uint64_t, region::Coverage>>(serial, region::cover(tree_, tops));
  return &coverage_->second;
}

region::Region TreeProfile::region_of(std::span<const Summary> S) {
  auto [tops, outside] = cum_union_nodes(S);
  auto [methods, along] = base_union_nodes(S);
  std::vector<std::pair<MethodId, Amount>> bases;
  for (MethodId m : methods) bases.emplace_back(m, method_totals()[m].base);
  return region::make_region(tree_, std::move(tops), std::move(outside), std::move(bases), std::move(along));
}

std::shared_ptr<const region::Region> TreeProfile::region_of(Summary s) {
  if (region_cache_ && region_cached_for_ == s) return region_cache_;
  // One summary's outermost finals are known already; no union to take.
  const std::span<const NodeId> tops = top_finals(s);
  std::vector<NodeId> outside, along;
  std::vector<std::pair<MethodId, Amount>> bases;
  if (is_method_summary(s)) {
    bases.emplace_back(s.id, method_totals()[s.id].base);
  } else {
    outside = sequence(s).exposed;
    along = sequence(s).along;
  }
  region_cache_ = std::make_shared<const region::Region>(
      region::make_region(tree_, {tops.begin(), tops.end()}, std::move(outside), std::move(bases), std::move(along)));
  region_cached_for_ = s;
  return region_cache_;
}

}  // namespace bn::calltree
