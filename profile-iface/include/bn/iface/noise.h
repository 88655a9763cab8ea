#pragma once
// Sampling noise of a difference (issue 17; docs/compare.md, "Noise"). A comparison of two
// sampled runs subtracts counts that would differ even between two runs of the same program, so
// each difference gets a two-sample test: with a and b a summary's sample counts in A and B and k
// the normalisation in force (A − k·b is shown), and each count taken as Poisson (its variance
// its own value; a count of hits out of n samples is binomial, whose variance is smaller, so the
// test errs towards "within noise"), the difference's z-score is
//   z = (a − k·b) / sqrt(a + k²·b).
// It is significant when |z| >= 4, decided exactly as z² >= 16 in rationals: two-sided level
// about 6·10⁻⁵ per difference, strict because a session looks at hundreds of them.

#include <string>

#include "bn/iface/amount.h"

namespace bn::iface {

inline constexpr int kSignificantZ = 4;

struct Noise {
  Rational z_squared;  // of the difference; 0 when both counts are 0
  bool significant() const { return z_squared >= Rational(kSignificantZ * kSignificantZ); }
  // |z| rounded for display ("1.3").
  std::string z_text() const;
};

// The test for counts a of A and b of B (in samples, exact) and weight k of B.
Noise difference_noise(const Rational& a, const Rational& b, const Rational& k);

}  // namespace bn::iface
