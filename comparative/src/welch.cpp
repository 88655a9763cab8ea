#include "bn/comparative/welch.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

namespace bn::comparative {
namespace {

// Welch–Satterthwaite: (Σ v/n)² / Σ (v/n)²/(n − 1) over the sides whose spread is measured; a
// side of one run has a known (sampling) variance and adds no uncertainty of its own.
double welch_df(const SideMoments& a, const SideMoments& b) {
  const double va = a.variance / a.n, vb = b.variance / b.n;
  double denominator = 0;
  if (a.n > 1) denominator += va * va / (a.n - 1);
  if (b.n > 1) denominator += vb * vb / (b.n - 1);
  if (denominator == 0) return std::numeric_limits<double>::infinity();
  return (va + vb) * (va + vb) / denominator;
}

}  // namespace

SideMoments side_moments(std::span<const double> shares, std::span<const double> sampling) {
  SideMoments m;
  m.n = static_cast<double>(shares.size());
  m.mean = std::accumulate(shares.begin(), shares.end(), 0.0) / m.n;
  const double sampling_mean = std::accumulate(sampling.begin(), sampling.end(), 0.0) / m.n;
  if (shares.size() < 2) {
    m.variance = sampling_mean;
    return m;
  }
  double squares = 0;
  for (const double v : shares) squares += (v - m.mean) * (v - m.mean);
  m.variance = std::max(squares / (m.n - 1), sampling_mean);
  return m;
}

double standard_error(const SideMoments& a, const SideMoments& b) {
  return std::sqrt(a.variance / a.n + b.variance / b.n);
}

DifferenceTest welch_difference(const SideShares& a, const SideShares& b, double confidence) {
  const SideMoments ma = side_moments(a.shares, a.sampling), mb = side_moments(b.shares, b.sampling);
  DifferenceTest t;
  t.difference = ma.mean - mb.mean;
  t.standard_error = standard_error(ma, mb);
  t.spread_measured = ma.n > 1 || mb.n > 1;
  t.df = welch_df(ma, mb);
  if (t.standard_error == 0) {
    // Every run of both sides has the same share and no sampling variance: exact.
    t.p = t.difference == 0 ? 1 : 0;
    t.low = t.high = t.difference;
    return t;
  }
  const double statistic = std::abs(t.difference) / t.standard_error;
  const double tail = (1 - confidence) / 2;
  double critical = 0;
  if (std::isinf(t.df)) {
    const boost::math::normal z;
    t.p = 2 * boost::math::cdf(boost::math::complement(z, statistic));
    critical = boost::math::quantile(boost::math::complement(z, tail));
  } else {
    const boost::math::students_t student(t.df);
    t.p = 2 * boost::math::cdf(boost::math::complement(student, statistic));
    critical = boost::math::quantile(boost::math::complement(student, tail));
  }
  t.p = std::min(t.p, 1.0);
  t.low = t.difference - critical * t.standard_error;
  t.high = t.difference + critical * t.standard_error;
  return t;
}

}  // namespace bn::comparative
