#pragma once
// Coverage of a set of summaries (seed 004 sec. 3: the bottlenecks found "cover" a share of
// the profile, e.g. "over 80% of the overhead"). Written once on the profile interface, so it
// is right for every backend: overlap among the summaries is counted once (total_cum_of).

#include <span>
#include <string>

#include "bn/iface/amount.h"
#include "bn/iface/profile.h"

namespace bn::iface {

struct Coverage {
  Amount cum = 0;    // total_cum_of(S): numerator over the profile's denominator
  Amount total = 0;  // total() of the profile, same denominator
  // cum as a percentage of total, exact then rounded ("80.3%"); "n/a" when the total is 0.
  // Comparative totals can be negative or smaller than cum: the ratio is shown as it is.
  std::string percent(int digits = 1) const { return percent_string(cum, total, digits); }
};

Coverage coverage(Profile& p, std::span<const Summary> S);

// a (a numerator over p.denominator()) as a percentage of p.total(), as Coverage::percent.
std::string percent_of_total(Profile& p, Amount a, int digits = 1);

}  // namespace bn::iface
