// The diff gate's max-t test (comparative/max_t.h) against a deliberately naive model: every
// labelling built by recursion over subsets, Welch's t from welch_difference's difference and
// standard error, the adjusted p-value by counting maxima (ties within rounding reach), and the
// critical values against the p-values: a difference beyond its critical value is significant.
#include "bn/comparative/max_t.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using bn::comparative::labellings_of;
using bn::comparative::max_t_test;
using bn::comparative::RunShares;
using bn::comparative::SideShares;

namespace {

// Every way to pick `a` of `n` runs as A, the real one (the first `a`) among them.
void subsets(std::size_t n, std::size_t a, std::size_t from, std::vector<std::size_t>& picked,
             std::vector<std::vector<std::size_t>>& out) {
  if (picked.size() == a) {
    out.push_back(picked);
    return;
  }
  for (std::size_t i = from; i < n; ++i) {
    picked.push_back(i);
    subsets(n, a, i + 1, picked, out);
    picked.pop_back();
  }
}

double naive_t(const RunShares& r, const std::vector<std::size_t>& a_picked) {
  std::vector<double> shares = r.a.shares, sampling = r.a.sampling;
  shares.insert(shares.end(), r.b.shares.begin(), r.b.shares.end());
  sampling.insert(sampling.end(), r.b.sampling.begin(), r.b.sampling.end());
  SideShares a, b;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    SideShares& side = std::count(a_picked.begin(), a_picked.end(), i) ? a : b;
    side.shares.push_back(shares[i]);
    side.sampling.push_back(sampling[i]);
  }
  const auto test = bn::comparative::welch_difference(a, b);
  if (test.standard_error > 0) return test.difference / test.standard_error;
  return test.difference == 0 ? 0 : std::copysign(INFINITY, test.difference);
}

RunShares random_member(std::mt19937& random, std::size_t a_runs, std::size_t b_runs) {
  std::uniform_real_distribution<double> share(0, 0.3), shift(-0.05, 0.05);
  std::bernoulli_distribution bimodal(0.3), tie(0.2);
  RunShares r;
  const double a_shift = shift(random);
  const bool two_modes = bimodal(random);
  for (std::size_t i = 0; i < a_runs + b_runs; ++i) {
    SideShares& side = i < a_runs ? r.a : r.b;
    double s = std::max(0.0, share(random) + (i < a_runs ? a_shift : 0));
    if (two_modes) s = share(random) < 0.15 ? 0 : 0.2;  // a JIT that moves samples in some runs
    if (tie(random)) s = 0.1;
    side.shares.push_back(s);
    side.sampling.push_back(tie(random) ? 0 : s * (1 - s) / 1000);
  }
  return r;
}

}  // namespace

TEST_CASE("max-t matches the naive model on random families") {
  std::mt19937 random(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t a_runs = 1 + random() % 5, b_runs = 1 + random() % 5, members = 1 + random() % 6;
    std::vector<RunShares> family;
    for (std::size_t m = 0; m < members; ++m) family.push_back(random_member(random, a_runs, b_runs));
    const double alpha = trial % 2 ? 0.05 : 0.2;
    const auto test = max_t_test(family, alpha);

    std::vector<std::vector<std::size_t>> labellings;
    std::vector<std::size_t> picked;
    subsets(a_runs + b_runs, a_runs, 0, picked, labellings);
    REQUIRE(test.labellings == labellings.size());
    CHECK(test.exhaustive);
    std::vector<double> up, down;
    for (const auto& l : labellings) {
      double u = -INFINITY, d = -INFINITY;
      for (const RunShares& r : family) {
        u = std::max(u, naive_t(r, l));
        d = std::max(d, -naive_t(r, l));
      }
      up.push_back(u);
      down.push_back(d);
    }
    const double L = static_cast<double>(labellings.size());
    for (std::size_t m = 0; m < members; ++m) {
      const double t = naive_t(family[m], labellings.front());
      if (std::isinf(t))
        CHECK(test.t[m] == t);
      else
        CHECK(test.t[m] == doctest::Approx(t).epsilon(1e-12));
      // Maxima within rounding of |t| reach it: tied shares give equal t in exact arithmetic.
      const auto& largest = t > 0 ? up : down;
      const double size = std::abs(t);
      const double p = t == 0 ? 1 : std::count_if(largest.begin(), largest.end(), [&](double x) {
                                      return x >= size || x >= size - 1e-9 * size;
                                    }) / L;
      CHECK(test.p[m] == doctest::Approx(p));
      // The critical values agree with the p-values, ties within rounding aside.
      const double critical = t > 0 ? test.up : test.down;
      if (t != 0 && size > critical * (1 + 1e-6)) CHECK(p <= alpha);
      if (t != 0 && p <= alpha) CHECK(size >= critical);
    }
  }
}

TEST_CASE("max-t: three runs per side that separate perfectly reach exactly 1/20") {
  RunShares r;
  r.a = {{0.30, 0.31, 0.32}, {0, 0, 0}};
  r.b = {{0.10, 0.11, 0.12}, {0, 0, 0}};
  const auto test = max_t_test(std::vector<RunShares>{r}, 0.05);
  CHECK(test.labellings == 20);
  CHECK(test.p[0] == doctest::Approx(0.05));
  CHECK(test.t[0] > test.up);
}

TEST_CASE("max-t: a bimodal method makes a regression elsewhere no more certain than its own flips") {
  // Member 0: a clear regression. Member 1: 0 in some runs, 0.2 in others, split so that some
  // labelling separates its modes perfectly: its t there is unbounded and sets the maximum.
  RunShares clear, flips;
  clear.a = {{0.21, 0.22, 0.20, 0.21}, {1e-4, 1e-4, 1e-4, 1e-4}};
  clear.b = {{0.10, 0.11, 0.10, 0.12}, {1e-4, 1e-4, 1e-4, 1e-4}};
  flips.a = {{0, 0.2, 0, 0.2}, {0, 0, 0, 0}};
  flips.b = {{0.2, 0, 0.2, 0}, {0, 0, 0, 0}};
  const auto alone = max_t_test(std::vector<RunShares>{clear}, 0.05);
  const auto both = max_t_test(std::vector<RunShares>{clear, flips}, 0.05);
  CHECK(alone.p[0] == doctest::Approx(1.0 / 70));
  CHECK(both.p[0] > alone.p[0]);
  CHECK(both.p[1] == 1);  // no difference as labelled: 0.1 against 0.1
}

TEST_CASE("labellings_of counts subsets and saturates") {
  CHECK(labellings_of(1, 1) == 2);
  CHECK(labellings_of(3, 3) == 20);
  CHECK(labellings_of(5, 5) == 252);
  CHECK(labellings_of(2, 5) == 21);
  CHECK(labellings_of(1, 19) == 20);
  CHECK(labellings_of(10, 10) == bn::comparative::kMaxLabellings + 1);
  CHECK(labellings_of(40, 40) == bn::comparative::kMaxLabellings + 1);
}

TEST_CASE("max-t draws labellings at random beyond the limit, reproducibly, the real one first") {
  std::mt19937 random(3);
  std::vector<RunShares> family{random_member(random, 10, 10), random_member(random, 10, 10)};
  const auto first = max_t_test(family, 0.05), second = max_t_test(family, 0.05);
  CHECK_FALSE(first.exhaustive);
  CHECK(first.labellings == bn::comparative::kMaxLabellings);
  CHECK(first.p == second.p);
  for (const double p : first.p) CHECK(p >= 1.0 / bn::comparative::kMaxLabellings);
}

TEST_CASE("max-t refuses members with different runs") {
  RunShares x, y;
  x.a = {{0.1}, {0}};
  x.b = {{0.1, 0.2}, {0, 0}};
  y.a = {{0.1, 0.2}, {0, 0}};
  y.b = {{0.1}, {0}};
  CHECK_THROWS(max_t_test(std::vector<RunShares>{x, y}, 0.05));
}
