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
  if (!same(m.set, members)) m = {p.summary_set(members), ++serials_};
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
  Measured& first = measured(p, labels, a);
  Measured& second = measured(p, labels, b);
  PairOverlap& kept = pairs_[{a, b}];
  if (kept.a != first.serial || kept.b != second.serial)
    kept = {first.serial, second.serial, first.set->overlap(*second.set)};
  return kept.overlap;
}

iface::SummarySet& LabelMeasures::all(iface::Profile& p, const LabelSet& labels) {
  const std::vector<iface::Summary> members = labels.all_summaries();
  if (!same(all_, members)) all_ = p.summary_set(members);
  return *all_;
}

void LabelMeasures::clear() {
  sets_.clear();
  pairs_.clear();
  all_.reset();
  last_.reset();
}

}  // namespace bn::repl
