#pragma once
// A set of summaries S measured once and kept, to be asked its overlap with summaries and with
// other sets (seed 004 sec. 2.1 "cum_ovl", sec. 2.3: the REPL shows the overlap of every
// summary it details with every label, and `labels` the overlap of every pair of labels). A
// label set changes rarely and is asked often, so a backend may keep the union's nodes and
// answer an overlap from them, in what the smaller side's nodes cost. This default asks
// total_cum_of/total_base_of each time: exact for every backend.

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "bn/iface/amount.h"
#include "bn/iface/summary.h"

namespace bn::iface {

class Profile;

// The cost two things share, each measurement counted once.
struct Overlap {
  Amount cum = 0;
  Amount base = 0;
  bool operator==(const Overlap&) const = default;
};

// Two sets of a list that share cost: their positions in the list (first < second) and what
// they share.
struct SetPairOverlap {
  std::size_t first = 0, second = 0;
  Overlap overlap;
  bool operator==(const SetPairOverlap&) const = default;
};

class SummarySet {
 public:
  SummarySet(Profile& profile, std::span<const Summary> members)
      : profile_(profile), members_(members.begin(), members.end()) {}
  virtual ~SummarySet() = default;
  SummarySet(const SummarySet&) = delete;
  SummarySet& operator=(const SummarySet&) = delete;

  std::span<const Summary> members() const { return members_; }
  // total_cum_of(S) and total_base_of(S).
  virtual Amount total_cum();
  virtual Amount total_base();
  // cum(s) + total_cum(S) - total_cum(S ∪ {s}), and the same with base (overlap.h).
  virtual Overlap overlap(Summary s);
  // total_cum(S) + total_cum(T) - total_cum(S ∪ T), and the same with base; `other` is a set
  // of the same profile.
  virtual Overlap overlap(SummarySet& other);

 private:
  Profile& profile_;
  std::vector<Summary> members_;
};

}  // namespace bn::iface
