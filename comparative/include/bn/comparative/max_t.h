#pragma once
// The diff gate's test when the runs allow it (docs/compare.md, "The diff gate"): single-step
// max-t over relabellings of the runs (Westfall & Young 1993, sec. 2.6). If nothing changed, the
// runs of both sides are exchangeable: any n_A of the n runs could have been A. For each
// labelling every difference of the family gets Welch's statistic t = (mean A − mean B) / SE
// (welch.h: the runs' spread, floored by the sampling variance), and M is the family's largest
// t. A difference's adjusted p-value is the share of labellings whose M reaches its t: the chance
// that a relabelling alone makes anything in the family look as slow. No normality, no
// independence between summaries is assumed, and the whole family's error is held, selection
// included for what the family contains: the runs' real spread, a JIT that moves a method's
// samples into its caller in some runs only, GC bursts, all of it is in the labellings.
// Regressions (largest t) and improvements (largest −t) are two one-sided families, so the
// smallest p-value is 1 / labellings and a test at 5% needs 20 labellings: 3 runs per side,
// or 2 against 5, or 1 against 19.

#include <cstddef>
#include <span>
#include <vector>

#include "bn/comparative/run_shares.h"

namespace bn::comparative {

// Labellings enumerated one by one up to this many; beyond, this many drawn at random (a fixed
// seed, so a report is reproducible), the real one among them.
inline constexpr std::size_t kMaxLabellings = 10000;

// C(a_runs + b_runs, a_runs), saturated at kMaxLabellings + 1.
std::size_t labellings_of(std::size_t a_runs, std::size_t b_runs);

struct MaxTTest {
  // Per member of the family, in its order: t with the runs as labelled, and the adjusted
  // one-sided p-value of its direction (regression when t > 0, improvement when t < 0; 1 at 0).
  // A member is significant when its p is at most alpha.
  std::vector<double> t, p;
  // The largest t of all but the top alpha of the labellings, and the same of −t: the interval
  // [difference − up·SE, difference + down·SE] excludes 0 when the member is significant (ties
  // within rounding aside), each bound holding for every member at once.
  double up = 0, down = 0;
  std::size_t labellings = 0;
  bool exhaustive = false;  // every labelling, rather than a random draw of them
};

// Every member has the same number of runs on each side, at least one; `alpha` in (0, 1).
MaxTTest max_t_test(std::span<const RunShares> family, double alpha);

}  // namespace bn::comparative
