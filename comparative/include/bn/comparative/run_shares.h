#pragma once
// Per-run shares of a comparison, what the test across runs (welch.h) compares (docs/compare.md,
// "The diff gate"). A share is a run's cum of a set of summaries over a total:
//  - under `--normalize total` over the run's own total, so runs that did different amounts of
//    work compare by shape;
//  - otherwise over the baseline's total, k times B's mean total (k the normalisation's
//    factor, 1 by default), B's runs weighed by k: the mean of A's shares minus the mean of B's is
//    then exactly the comparison's difference over that total. A run's own total is no
//    denominator here: a regression that makes every run longer would turn into a share taken
//    from everything else.
// The sampling variance of a run's share, for runs that count samples: the count c of n samples
// is binomial, Var(c) = n·p(1−p) with p = c/n, divided by the squared denominator (p(1−p)/n when
// the denominator is n). For a total, whose count is not a share of anything fixed, the count is
// taken as Poisson, Var = n. Other metrics (nanoseconds, instructions) have no sampling variance.

#include <optional>
#include <span>

#include "bn/comparative/comparative_profile.h"
#include "bn/comparative/welch.h"

namespace bn::comparative {

struct RunShares {
  SideShares a, b;
};

// The shares of the union of S in every run. Throws bn::Error when B's total is 0.
RunShares run_shares(ComparativeProfile& p, std::span<const iface::Summary> S);
// The shares of the total; nullopt under `--normalize total`, where both sides' totals are made
// equal. Throws bn::Error when B's total is 0.
std::optional<RunShares> total_shares(ComparativeProfile& p);

}  // namespace bn::comparative
