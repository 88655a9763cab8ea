#pragma once
// The two sides behind a summary of a comparative profile (A minus B, seed 004 sec. 2.2), so a
// display can show A, B and A−B and spot a sequence that occurs in one run only. Numerators
// over the profile's denominator(); B's values are already normalised, so
// cum_of(s) == a_cum - b_cum, base_of(s) == a_base - b_base and total() == a_total - b_total.

#include "bn/iface/amount.h"

namespace bn::iface {

struct SideBySide {
  bool in_a = false, in_b = false;  // the sequence has a root in A / in B (an absent side is 0)
  Amount a_cum = 0, a_base = 0;
  Amount b_cum = 0, b_base = 0;
  Amount a_total = 0, b_total = 0;  // whole-profile totals of each side
};

}  // namespace bn::iface
