#pragma once
// Sampling noise of a difference (docs/compare.md, "Noise"). A comparison of sampled
// runs subtracts counts that would differ even between two runs of the same program, so each
// difference gets a two-sample test. A side is the mean of n >= 1 runs with counts x_1..x_n of
// a summary (n = 1: the count itself); A's mean minus k times B's mean is shown, k the
// normalisation in force. The variance of a side's mean is estimated as
//   max(Poisson, spread) = max(mean / n, s² / n), s² = Σ(x_i − mean)² / (n − 1) (n >= 2 only):
// each count taken as Poisson (its variance its own value; a count of hits out of N samples is
// binomial, whose variance is smaller, so the test errs towards "within noise"), unless the
// runs themselves scatter more (JIT compiler threads, GC and page faults differ run to run).
// The difference's z-score is
//   z = (mean_A − k·mean_B) / sqrt(V_A + k²·V_B);
// with one run per side that is (a − k·b) / sqrt(a + k²·b). It is significant when |z| >= 4,
// decided exactly as z² >= 16 in rationals: two-sided level about 6·10⁻⁵ per difference under
// the normal approximation, strict because a session looks at hundreds of them.

#include <span>
#include <string>

#include "bn/iface/amount.h"

namespace bn::iface {

inline constexpr int kSignificantZ = 4;

// Which estimate of a side's variance a test used: its counts' own (Poisson) or the spread of
// its runs, whichever is larger; a side of one run has only the first.
enum class VarianceEstimate { poisson, runs };
const char* to_string(VarianceEstimate e);

struct Noise {
  Rational z_squared;  // of the difference; 0 when every count is 0
  VarianceEstimate a_estimate = VarianceEstimate::poisson;
  VarianceEstimate b_estimate = VarianceEstimate::poisson;
  std::size_t a_runs = 1, b_runs = 1;  // how many runs each side averages
  bool several_runs() const { return a_runs > 1 || b_runs > 1; }
  // With several runs: which variance each side used, "A: runs' spread, B: Poisson".
  std::string estimates_text() const;
  bool significant() const { return z_squared >= Rational(kSignificantZ * kSignificantZ); }
  // |z| rounded for display ("1.3").
  std::string z_text() const;
};

// The test for the runs' counts of A and of B (in samples, exact; each side non-empty) and
// weight k of B's mean.
Noise difference_noise(std::span<const Rational> a_runs, std::span<const Rational> b_runs, const Rational& k);
// One run per side: counts a of A and b of B.
Noise difference_noise(const Rational& a, const Rational& b, const Rational& k);

}  // namespace bn::iface
