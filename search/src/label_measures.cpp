#include "bn/search/label_measures.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace bn::search {

bool LabelMeasures::same(const std::unique_ptr<iface::SummarySet>& set, const std::vector<iface::Summary>& members) {
  return set != nullptr && std::ranges::equal(set->members(), members);
}

LabelMeasures::Measured& LabelMeasures::measured(iface::Profile& p, const LabelSet& labels, const std::string& label) {
  // What belongs to labels that no longer exist goes, so memory follows the labels. Kept sets
  // outnumber the labels exactly when one of them is of a label gone (each is of a label that
  // existed when it was made), so the check costs nothing on the usual path.
  if (sets_.size() > labels.all().size()) {
    std::erase_if(sets_, [&](const auto& entry) { return !labels.all().contains(entry.first); });
    std::erase_if(pairs_, [&](const auto& entry) {
      return !sets_.contains(entry.first.first) || !sets_.contains(entry.first.second);
    });
  }
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

iface::Overlap LabelMeasures::between(iface::Profile& p, const LabelSet& labels, const std::string& a,
                                      const std::string& b) {
  if (a == b) {
    iface::SummarySet& set = *measured(p, labels, a).set;
    return set.overlap(set);
  }
  // An overlap is symmetric: each pair is kept once, under its names in order.
  const std::pair<std::string, std::string> key = std::minmax(a, b);
  const Measured& first = measured(p, labels, key.first);
  const Measured& second = measured(p, labels, key.second);
  const auto kept = pairs_.find(key);
  if (kept != pairs_.end() && kept->second.a == first.serial && kept->second.b == second.serial)
    return kept->second.overlap;
  // The newer set is of a label that changed: its pairs with every label are asked of the
  // profile at once (`labels` shows them all), the others' are kept.
  measure_pairs_of(p, labels, first.serial > second.serial ? key.first : key.second);
  return pairs_.at(key).overlap;
}

void LabelMeasures::measure_pairs_of(iface::Profile& p, const LabelSet& labels, const std::string& label) {
  Measured& changed = measured(p, labels, label);
  std::vector<Pending> pending;
  for (const auto& entry : labels.all()) {
    if (entry.first == label) continue;
    const Measured& other = measured(p, labels, entry.first);
    Pending pair{std::minmax(label, entry.first), label < entry.first, other.set.get(), other.serial};
    const auto kept = pairs_.find(pair.key);
    if (kept != pairs_.end() && kept->second.serials() == pair.serials(changed.serial)) continue;
    pending.push_back(std::move(pair));
  }
  const std::vector<iface::Overlap> shared = overlaps_of_changed(p, changed, pending);
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const auto [a, b] = pending[i].serials(changed.serial);
    pairs_[pending[i].key] = {a, b, shared[i]};
  }
  changed.growth.reset();  // every pair of the earlier set is replaced
}

std::vector<iface::Overlap> LabelMeasures::overlaps_of_changed(iface::Profile& p, const Measured& changed,
                                                               const std::vector<Pending>& pending) {
  // A pair that the label's earlier set had with the other label, and the added summary's
  // overlap with that label's set as it still is (kept for the last summary shown), give the
  // pair by inclusion-exclusion; the rest are measured.
  const Measured::Growth* growth = changed.growth ? &*changed.growth : nullptr;
  const bool added_shown = growth != nullptr && last_ && last_->summary == growth->added;
  std::vector<std::size_t> grown, fresh;
  std::vector<iface::SummarySet*> grown_sets, fresh_sets;
  std::vector<iface::Overlap> earlier_with, added_with;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const Pending& pair = pending[i];
    const iface::Overlap *earlier_pair = nullptr, *added_pair = nullptr;
    if (added_shown) {
      const auto kept = pairs_.find(pair.key);
      if (kept != pairs_.end() && kept->second.serials() == pair.serials(growth->serial))
        earlier_pair = &kept->second.overlap;
      const auto shown = std::ranges::find(last_->serials, pair.other_serial);
      if (shown != last_->serials.end())
        added_pair = &last_->overlaps[static_cast<std::size_t>(shown - last_->serials.begin())];
    }
    if (earlier_pair != nullptr && added_pair != nullptr) {
      grown.push_back(i);
      grown_sets.push_back(pair.other);
      earlier_with.push_back(*earlier_pair);
      added_with.push_back(*added_pair);
    } else {
      fresh.push_back(i);
      fresh_sets.push_back(pair.other);
    }
  }
  std::vector<iface::Overlap> out(pending.size());
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
  pairs_.clear();
  all_.reset();
  last_.reset();
}

}  // namespace bn::search
