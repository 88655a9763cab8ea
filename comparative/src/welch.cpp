#include "bn/comparative/welch.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

namespace bn::comparative {
namespace {

struct SideMoments {
  double mean = 0;
  double variance = 0;  // of one run's share: max(s², mean sampling variance), or the sampling one
  double n = 0;
};

SideMoments moments(const SideShares& side) {
  const std::vector<double>& x = side.shares;
  SideMoments m;
  m.n = static_cast<double>(x.size());
  m.mean = std::accumulate(x.begin(), x.end(), 0.0) / m.n;
  const double sampling = std::accumulate(side.sampling.begin(), side.sampling.end(), 0.0) / m.n;
  if (x.size() < 2) {
    m.variance = sampling;
    return m;
  }
  double squares = 0;
  for (const double v : x) squares += (v - m.mean) * (v - m.mean);
  m.variance = std::max(squares / (m.n - 1), sampling);
  return m;
}

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

DifferenceTest welch_difference(const SideShares& a, const SideShares& b, double confidence) {
  const SideMoments ma = moments(a), mb = moments(b);
  DifferenceTest t;
  t.difference = ma.mean - mb.mean;
  t.standard_error = std::sqrt(ma.variance / ma.n + mb.variance / mb.n);
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
