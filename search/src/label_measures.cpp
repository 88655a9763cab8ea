#include "bn/search/label_measures.h"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

namespace bn::search {

bool LabelMeasures::same(const std::unique_ptr<iface::SummarySet>& set, const std::vector<iface::Summary>& members) {
  return set != nullptr && std::ranges::equal(set->members(), members);
}

LabelMeasures::Measured& LabelMeasures::measured(iface::Profile& p, const LabelSet& labels, const std::string& label) {
  // What belongs to labels that no longer exist goes, so memory follows the labels. Kept sets
  // outnumber the labels exactly when one of them is of a label gone (each is of a label that
  // existed when it was made), so the check costs nothing on the usual path.
  if (sets_.size() > labels.all().size())
    std::erase_if(sets_, [&](const auto& entry) { return !labels.all().contains(entry.first); });
  const std::vector<iface::Summary>& members = labels.all().at(label);
  Measured& m = sets_[label];
  if (same(m.set, members)) return m;
  // A label that gained a summary is measured from what its set measured before.
  std::unique_ptr<iface::SummarySet> earlier = std::move(m.set);
  m.set = earlier ? p.summary_set_from(*earlier, members) : p.summary_set(members);
  const std::uint64_t earlier_serial = std::exchange(m.serial, ++serials_);
  m.growth.reset();
  if (const std::optional<iface::Summary> added = earlier ? one_added(earlier->members(), members) : std::nullopt)
    m.growth = Measured::Growth{std::move(earlier), earlier_serial, *added};
  return m;
}

std::optional<iface::Summary> LabelMeasures::one_added(std::span<const iface::Summary> earlier,
                                                       const std::vector<iface::Summary>& members) {
  if (members.size() != earlier.size() + 1) return std::nullopt;
  std::vector<iface::Summary> had(earlier.begin(), earlier.end()), now = members;
  std::sort(had.begin(), had.end());
  std::sort(now.begin(), now.end());
  std::vector<iface::Summary> added;
  std::set_difference(now.begin(), now.end(), had.begin(), had.end(), std::back_inserter(added));
  if (added.size() != 1) return std::nullopt;
  return added.front();
}

iface::SummarySet& LabelMeasures::of(iface::Profile& p, const LabelSet& labels, const std::string& label) {
  return *measured(p, labels, label).set;
}

std::vector<iface::Overlap> LabelMeasures::with(iface::Profile& p, const LabelSet& labels, iface::Summary s) {
  std::vector<iface::SummarySet*> sets;
  std::vector<std::uint64_t> serials;
  for (const auto& entry : labels.all()) {
    Measured& m = measured(p, labels, entry.first);
    sets.push_back(m.set.get());
    serials.push_back(m.serial);
  }
  if (!last_ || last_->summary != s || last_->serials != serials)
    last_ = LastSummary{s, std::move(serials), p.overlaps(s, sets)};
  return last_->overlaps;
}

const std::vector<LabelMeasures::LabelPair>& LabelMeasures::pairs(iface::Profile& p, const LabelSet& labels) {
  std::vector<std::string> names;
  std::vector<Measured*> sets;
  for (const auto& entry : labels.all()) {
    names.push_back(entry.first);
    sets.push_back(&measured(p, labels, entry.first));
  }
  std::vector<std::size_t> changed;
  if (listing_) {
    for (std::size_t k = 0; k < names.size(); ++k) {
      const auto listed_at = listing_->serials.find(names[k]);
      if (listed_at == listing_->serials.end() || listed_at->second != sets[k]->serial) changed.push_back(k);
    }
    if (changed.empty() && listing_->serials.size() == names.size()) return listing_->pairs;
  }
  if (!listing_ || changed.size() > kFewChanged) {
    listing_ = listed_afresh(p, names, sets);
    for (Measured* m : sets) m->growth.reset();
    return listing_->pairs;
  }
  // Each changed label's pairs are measured with every label but the changed ones before it,
  // which measured theirs; the pairs of labels that stayed are kept (those of labels gone go).
  Listing now;
  for (std::size_t k = 0; k < names.size(); ++k) now.serials.emplace(names[k], sets[k]->serial);
  const auto stayed = [&](const std::string& name) {
    const auto at = now.serials.find(name);
    return at != now.serials.end() && listing_->serials.at(name) == at->second;
  };
  for (std::size_t j = 0; j < changed.size(); ++j) {
    const std::size_t k = changed[j];
    std::vector<std::size_t> others;
    for (std::size_t o = 0; o < names.size(); ++o)
      if (o != k && std::find(changed.begin(), changed.begin() + static_cast<std::ptrdiff_t>(j), o) ==
                        changed.begin() + static_cast<std::ptrdiff_t>(j))
        others.push_back(o);
    const std::vector<iface::Overlap> shared = overlaps_of_changed(p, names[k], *sets[k], names, sets, others);
    for (std::size_t i = 0; i < others.size(); ++i) {
      if (shared[i] == iface::Overlap{}) continue;
      const auto [first, second] = std::minmax(names[k], names[others[i]]);
      now.pairs.push_back({first, second, shared[i]});
    }
  }
  for (std::size_t k : changed) sets[k]->growth.reset();
  // The new pairs sorted, then merged with the kept ones, which are in order already.
  const auto in_order = [](const LabelPair& x, const LabelPair& y) {
    return std::tie(x.first, x.second) < std::tie(y.first, y.second);
  };
  std::sort(now.pairs.begin(), now.pairs.end(), in_order);
  const auto measured_end = static_cast<std::ptrdiff_t>(now.pairs.size());
  for (LabelPair& pair : listing_->pairs)
    if (stayed(pair.first) && stayed(pair.second)) now.pairs.push_back(std::move(pair));
  std::inplace_merge(now.pairs.begin(), now.pairs.begin() + measured_end, now.pairs.end(), in_order);
  listing_ = std::move(now);
  return listing_->pairs;
}

LabelMeasures::Listing LabelMeasures::listed_afresh(iface::Profile& p, const std::vector<std::string>& names,
                                                    const std::vector<Measured*>& sets) {
  Listing out;
  std::vector<iface::SummarySet*> all;
  for (std::size_t k = 0; k < names.size(); ++k) {
    out.serials.emplace(names[k], sets[k]->serial);
    all.push_back(sets[k]->set.get());
  }
  // names are in order (the label map's), so each pair's first position names its first label.
  for (const iface::SetPairOverlap& pair : p.pair_overlaps(all))
    out.pairs.push_back({names[pair.first], names[pair.second], pair.overlap});
  return out;
}

iface::Overlap LabelMeasures::listed(const std::string& a, const std::string& b) const {
  const auto at =
      std::lower_bound(listing_->pairs.begin(), listing_->pairs.end(), std::tie(a, b),
                       [](const LabelPair& pair, const auto& key) { return std::tie(pair.first, pair.second) < key; });
  return at != listing_->pairs.end() && at->first == a && at->second == b ? at->overlap : iface::Overlap{};
}

std::vector<iface::Overlap> LabelMeasures::overlaps_of_changed(iface::Profile& p, const std::string& name,
                                                               Measured& changed, const std::vector<std::string>& names,
                                                               const std::vector<Measured*>& sets,
                                                               const std::vector<std::size_t>& others) const {
  // A label that gained the summary shown last, listed before at its earlier set: a pair with a
  // label listed at its set still follows from the earlier pair and the added summary's overlap
  // with that label (kept for the last summary shown), by inclusion-exclusion; the rest are
  // measured.
  const Measured::Growth* growth = changed.growth ? &*changed.growth : nullptr;
  const bool from_growth = growth != nullptr && last_ && last_->summary == growth->added &&
                           listing_->serials.contains(name) && listing_->serials.at(name) == growth->serial;
  std::vector<std::size_t> grown, fresh;
  std::vector<iface::SummarySet*> grown_sets, fresh_sets;
  std::vector<iface::Overlap> earlier_with, added_with;
  for (std::size_t i = 0; i < others.size(); ++i) {
    const std::string& other = names[others[i]];
    const Measured& o = *sets[others[i]];
    const auto listed_at = listing_->serials.find(other);
    const bool listed_now = listed_at != listing_->serials.end() && listed_at->second == o.serial;
    const auto shown = from_growth && listed_now ? std::ranges::find(last_->serials, o.serial)
                                                 : std::vector<std::uint64_t>::const_iterator{};
    if (from_growth && listed_now && shown != last_->serials.end()) {
      grown.push_back(i);
      grown_sets.push_back(o.set.get());
      const auto [first, second] = std::minmax(name, other);
      earlier_with.push_back(listed(first, second));
      added_with.push_back(last_->overlaps[static_cast<std::size_t>(shown - last_->serials.begin())]);
    } else {
      fresh.push_back(i);
      fresh_sets.push_back(o.set.get());
    }
  }
  std::vector<iface::Overlap> out(others.size());
  if (!grown.empty()) {
    const std::vector<iface::Overlap> got =
        p.grown_set_overlaps(*changed.set, *growth->earlier, growth->added, grown_sets, earlier_with, added_with);
    for (std::size_t k = 0; k < grown.size(); ++k) out[grown[k]] = got[k];
  }
  if (!fresh.empty()) {
    const std::vector<iface::Overlap> got = p.set_overlaps(*changed.set, fresh_sets);
    for (std::size_t k = 0; k < fresh.size(); ++k) out[fresh[k]] = got[k];
  }
  return out;
}

iface::SummarySet& LabelMeasures::all(iface::Profile& p, const LabelSet& labels) {
  const std::vector<iface::Summary> members = labels.all_summaries();
  if (!same(all_, members)) all_ = all_ ? p.summary_set_from(*all_, members) : p.summary_set(members);
  return *all_;
}

void LabelMeasures::clear() {
  sets_.clear();
  listing_.reset();
  all_.reset();
  last_.reset();
}

}  // namespace bn::search
