// The statistics of `bottlenecks diff` (docs/compare.md, "The diff gate") against deliberately
// naive implementations: Welch's t and its Welch–Satterthwaite degrees of freedom from the
// textbook formulas, the two-sided p-value by integrating Student's t density numerically (not
// Boost.Math), the interval through the same integral and a table of t quantiles, and
// Benjamini–Hochberg by its definition on random p-values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "bn/comparative/false_discovery.h"
#include "bn/comparative/welch.h"

using bn::comparative::benjamini_hochberg;
using bn::comparative::SideShares;
using bn::comparative::welch_difference;

namespace {

// P(|T| >= t) for Student's t with df degrees of freedom: 1 − 2∫₀ᵗ f, Simpson's rule.
double naive_two_sided_p(double t, double df) {
  const double c = std::exp(std::lgamma((df + 1) / 2) - std::lgamma(df / 2)) / std::sqrt(df * M_PI);
  const auto f = [&](double x) { return c * std::pow(1 + x * x / df, -(df + 1) / 2); };
  const int steps = 200000;
  const double h = t / steps;
  double sum = f(0) + f(t);
  for (int i = 1; i < steps; ++i) sum += f(i * h) * (i % 2 ? 4 : 2);
  return 1 - 2 * sum * h / 3;
}

struct Naive {
  double difference, se, df, t;
};

// Welch (1947) with each side's variance floored by its mean sampling variance.
Naive naive_welch(const SideShares& a, const SideShares& b) {
  const auto stats = [](const SideShares& s, double& mean, double& v) {
    const double n = static_cast<double>(s.shares.size());
    mean = 0;
    for (double x : s.shares) mean += x / n;
    double sampling = 0;
    for (double x : s.sampling) sampling += x / n;
    double ss = 0;
    for (double x : s.shares) ss += (x - mean) * (x - mean);
    v = n > 1 ? std::max(ss / (n - 1), sampling) : sampling;
  };
  double ma, va, mb, vb;
  stats(a, ma, va);
  stats(b, mb, vb);
  const double na = static_cast<double>(a.shares.size()), nb = static_cast<double>(b.shares.size());
  const double se2 = va / na + vb / nb;
  const double df = (se2 * se2) / ((va / na) * (va / na) / (na - 1) + (vb / nb) * (vb / nb) / (nb - 1));
  return {ma - mb, std::sqrt(se2), df, (ma - mb) / std::sqrt(se2)};
}

}  // namespace

TEST_CASE("Welch's test matches the textbook formulas and a numerically integrated p-value") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> share(0.05, 0.4), noise(0, 0.03);
  for (int round = 0; round < 40; ++round) {
    SideShares a, b;
    const std::size_t na = 2 + round % 5, nb = 2 + (round / 5) % 4;
    const double pa = share(rng), pb = share(rng);
    for (std::size_t i = 0; i < na; ++i) {
      a.shares.push_back(pa + noise(rng));
      a.sampling.push_back(round % 3 == 0 ? 1e-3 : 1e-6);  // sometimes the floor decides
    }
    for (std::size_t i = 0; i < nb; ++i) {
      b.shares.push_back(pb + noise(rng));
      b.sampling.push_back(1e-6);
    }
    const auto got = welch_difference(a, b);
    const Naive want = naive_welch(a, b);
    CHECK(got.difference == doctest::Approx(want.difference).epsilon(1e-12));
    CHECK(got.standard_error == doctest::Approx(want.se).epsilon(1e-12));
    CHECK(got.df == doctest::Approx(want.df).epsilon(1e-9));
    CHECK(got.p == doctest::Approx(naive_two_sided_p(std::abs(want.t), want.df)).epsilon(1e-6));
    CHECK(got.spread_measured);
    // The interval's ends are where the naive two-sided p is 5%.
    CHECK(naive_two_sided_p((got.high - got.difference) / got.standard_error, got.df) ==
          doctest::Approx(0.05).epsilon(1e-6));
    CHECK(got.low == doctest::Approx(2 * got.difference - got.high).epsilon(1e-12));
  }
}

TEST_CASE("the interval uses Student's t quantiles from the tables") {
  // Two runs per side of equal variance and no floor: df = 2 (n_A − 1 + n_B − 1), t₀.₉₇₅ = 4.303.
  const SideShares a{{0.30, 0.32}, {0, 0}}, b{{0.20, 0.22}, {0, 0}};
  const auto t = welch_difference(a, b);
  CHECK(t.df == doctest::Approx(2));
  CHECK(t.difference == doctest::Approx(0.10));
  CHECK((t.high - t.difference) / t.standard_error == doctest::Approx(4.303).epsilon(1e-3));
  // Eleven runs each, equal variance: df = 20, t₀.₉₇₅ = 2.086.
  SideShares a11, b11;
  for (int i = 0; i < 11; ++i) {
    a11.shares.push_back(0.3 + 0.01 * (i % 3));
    b11.shares.push_back(0.2 + 0.01 * (i % 3));
    a11.sampling.push_back(0);
    b11.sampling.push_back(0);
  }
  const auto t11 = welch_difference(a11, b11);
  CHECK(t11.df == doctest::Approx(20));
  CHECK((t11.high - t11.difference) / t11.standard_error == doctest::Approx(2.086).epsilon(1e-3));
}

TEST_CASE("one run per side is a z test on the sampling variances") {
  // Shares 0.3 of 1000 samples and 0.2 of 1000: Var = p(1−p)/n each.
  const SideShares a{{0.3}, {0.3 * 0.7 / 1000}}, b{{0.2}, {0.2 * 0.8 / 1000}};
  const auto t = welch_difference(a, b);
  CHECK_FALSE(t.spread_measured);
  CHECK(std::isinf(t.df));
  const double se = std::sqrt(0.3 * 0.7 / 1000 + 0.2 * 0.8 / 1000);
  CHECK(t.standard_error == doctest::Approx(se));
  CHECK(t.high - t.difference == doctest::Approx(1.959964 * se).epsilon(1e-6));
  CHECK(t.p == doctest::Approx(std::erfc(0.1 / se / std::sqrt(2.0))).epsilon(1e-9));
}

TEST_CASE("runs that agree exactly are floored by their sampling variance") {
  const SideShares a{{0.3, 0.3, 0.3}, {1e-4, 1e-4, 1e-4}}, b{{0.29, 0.29, 0.29}, {1e-4, 1e-4, 1e-4}};
  const auto t = welch_difference(a, b);
  CHECK(t.standard_error == doctest::Approx(std::sqrt(2e-4 / 3)));
  CHECK(t.p > 0.2);  // 0.01 against a standard error of 0.008: not significant
  // Without a floor and without spread the difference is exact.
  const auto exact = welch_difference({{0.3, 0.3}, {0, 0}}, {{0.3, 0.3}, {0, 0}});
  CHECK(exact.p == 1);
}

TEST_CASE("Benjamini-Hochberg rejects what its definition rejects") {
  // The step-up example: m = 5, q = 0.05; thresholds 0.01, 0.02, 0.03, 0.04, 0.05.
  const std::vector<double> p{0.041, 0.001, 0.029, 0.2, 0.012};
  CHECK(benjamini_hochberg(p, 0.05) == std::vector<bool>{false, true, true, false, true});
  // A p-value above its own threshold is still rejected when a larger one passes (step-up).
  CHECK(benjamini_hochberg(std::vector<double>{0.03, 0.04}, 0.05) == std::vector<bool>{true, true});
  CHECK(benjamini_hochberg(std::vector<double>{}, 0.05).empty());

  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int round = 0; round < 200; ++round) {
    const std::size_t m = 1 + round % 30;
    std::vector<double> ps;
    for (std::size_t i = 0; i < m; ++i) ps.push_back(round % 2 ? std::pow(unit(rng), 4) : unit(rng));
    std::vector<double> sorted = ps;
    std::sort(sorted.begin(), sorted.end());
    double cut = -1;  // the largest p_(k) with p_(k) <= k q / m
    for (std::size_t k = 1; k <= m; ++k)
      if (sorted[k - 1] <= static_cast<double>(k) * 0.05 / static_cast<double>(m)) cut = sorted[k - 1];
    const std::vector<bool> got = benjamini_hochberg(ps, 0.05);
    for (std::size_t i = 0; i < m; ++i) CHECK(got[i] == (ps[i] <= cut));
  }
}
