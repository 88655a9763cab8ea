#include "bn/search/autolabel_overlaps.h"

#include <algorithm>

namespace bn::search {

iface::Amount AutolabelOverlaps::cum(iface::Summary s, iface::Summary t) {
  const auto key = std::minmax(s, t);
  if (const auto found = known_.find(key); found != known_.end()) return found->second;
  const iface::Amount shared = set_of(key.first).overlap(set_of(key.second)).cum;
  known_.emplace(key, shared);
  return shared;
}

iface::SummarySet& AutolabelOverlaps::set_of(iface::Summary s) {
  std::unique_ptr<iface::SummarySet>& set = sets_[s];
  if (!set) {
    const iface::Summary members[] = {s};
    set = profile_.summary_set(members);
  }
  return *set;
}

}  // namespace bn::search
