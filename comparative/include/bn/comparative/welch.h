#pragma once
// The test across runs of `bottlenecks diff` (docs/compare.md, "The diff gate"): the difference
// of two sides' mean shares, each side one share per run. With two runs or more on a side its
// variance is the runs' sample variance s², floored by the mean of its runs' sampling variances
// (a share of n samples is binomial: p(1−p)/n), so runs that agree by chance look no more
// certain than their samples allow. A side of one run has the sampling variance alone, taken as
// known. Welch's t (Welch 1947) with the Welch–Satterthwaite degrees of freedom then gives the
// two-sided p-value and the interval (Student's t, Boost.Math); when no side's spread is
// measured the degrees of freedom are infinite and t is the normal z.

#include <span>
#include <vector>

namespace bn::comparative {

// One side's runs: a share per run and the sampling variance of each (0 when unknown).
struct SideShares {
  std::vector<double> shares;
  std::vector<double> sampling;
};

struct DifferenceTest {
  double difference = 0;         // mean share of A − mean share of B
  double standard_error = 0;     // sqrt(V_A/n_A + V_B/n_B)
  double df = 0;                 // Welch–Satterthwaite; infinite when no spread is measured
  double p = 1;                  // two-sided
  double low = 0, high = 0;      // the confidence interval of the difference
  bool spread_measured = false;  // some side has two runs or more
};

// One side's mean share and the variance of one run's share: max(s², the mean sampling variance)
// over two runs or more, the sampling variance alone over one.
struct SideMoments {
  double mean = 0;
  double variance = 0;
  double n = 0;
};
// `shares` not empty, `sampling` as long.
SideMoments side_moments(std::span<const double> shares, std::span<const double> sampling);
// sqrt(V_A/n_A + V_B/n_B): the standard error of the difference of the two means.
double standard_error(const SideMoments& a, const SideMoments& b);

// Each side needs at least one run, `sampling` as long as `shares`. `confidence` in (0, 1).
DifferenceTest welch_difference(const SideShares& a, const SideShares& b, double confidence = 0.95);

}  // namespace bn::comparative
