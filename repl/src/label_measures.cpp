#include "bn/repl/label_measures.h"

#include <algorithm>

namespace bn::repl {

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
  // A label that gained a summary is measured from what its set measured before.
  if (!same(m.set, members)) m = {m.set ? p.summary_set_from(*m.set, members) : p.summary_set(members), ++serials_};
  return m;
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
  std::vector<std::pair<std::string, std::string>> keys;
  std::vector<iface::SummarySet*> others;
  for (const auto& entry : labels.all()) {
    if (entry.first == label) continue;
    const Measured& other = measured(p, labels, entry.first);
    std::pair<std::string, std::string> key = std::minmax(label, entry.first);
    const auto kept = pairs_.find(key);
    const bool first_is_changed = key.first == label;
    const std::uint64_t a = first_is_changed ? changed.serial : other.serial;
    const std::uint64_t b = first_is_changed ? other.serial : changed.serial;
    if (kept != pairs_.end() && kept->second.a == a && kept->second.b == b) continue;
    keys.push_back(std::move(key));
    others.push_back(other.set.get());
  }
  const std::vector<iface::Overlap> shared = p.set_overlaps(*changed.set, others);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const bool first_is_changed = keys[i].first == label;
    const std::uint64_t other_serial = sets_.at(first_is_changed ? keys[i].second : keys[i].first).serial;
    pairs_[keys[i]] = first_is_changed ? PairOverlap{changed.serial, other_serial, shared[i]}
                                       : PairOverlap{other_serial, changed.serial, shared[i]};
  }
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

}  // namespace bn::repl
