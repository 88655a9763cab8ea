#pragma once
// The cost two of autolabel's candidates share (cum_overlap, seed 004 sec. 2.1), measured once
// per pair: whether a candidate holds those below it and the search for the heaviest set of
// disjoint candidates ask the same pairs. Each candidate is made a summary set once, so a pair
// costs what the backend's set overlap costs (a galloping merge of node regions in the tree
// backend, per run in a comparison) instead of a union of the two.

#include <map>
#include <memory>
#include <utility>

#include "bn/iface/profile.h"

namespace bn::search {

class AutolabelOverlaps {
 public:
  explicit AutolabelOverlaps(iface::Profile& profile) : profile_(profile) {}

  // cum_overlap(profile, s, {t}), which is cum_overlap(profile, t, {s}).
  iface::Amount cum(iface::Summary s, iface::Summary t);

 private:
  iface::SummarySet& set_of(iface::Summary s);

  iface::Profile& profile_;
  std::map<iface::Summary, std::unique_ptr<iface::SummarySet>> sets_;
  std::map<std::pair<iface::Summary, iface::Summary>, iface::Amount> known_;  // by (lesser, greater)
};

}  // namespace bn::search
