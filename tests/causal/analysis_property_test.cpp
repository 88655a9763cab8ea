// The analysis against a deliberately naive recount of docs/causal.md on random experiments:
// every estimate is the ratio of sums exactly, curves hold one point per speedup tried, every
// interval holds its estimate, flags follow their rules, and the ranking is the documented one.

#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "bn/causal/analysis.h"
#include "causal_builder.h"

namespace bc = bn::causal;
namespace ct = bn::calltree;

namespace {

// Σd / Σn over the experiments `in` accepts, summed in recording order as documented, or none.
template <class In>
std::optional<double> naive_period(const ct::CausalData& data, In in) {
  double d = 0, n = 0;
  for (const ct::CausalExperiment& e : data.experiments)
    if (in(e)) {
      d += static_cast<double>(e.duration_ns - e.delay_ns);
      n += static_cast<double>(e.progress[0]);
    }
  if (n == 0) return std::nullopt;
  return d / n;
}

template <class In>
std::size_t naive_count(const ct::CausalData& data, In in) {
  return static_cast<std::size_t>(std::count_if(data.experiments.begin(), data.experiments.end(), in));
}

template <class In>
std::optional<double> naive_speedup(const ct::CausalData& data, In in) {
  const std::optional<double> base = naive_period(data, [](const ct::CausalExperiment& e) { return e.speedup == 0; });
  const std::optional<double> group = naive_period(data, in);
  if (!base || *base == 0 || !group) return std::nullopt;
  return 1 - *group / *base;
}

ct::CausalData random_experiments(std::mt19937& rng) {
  const std::size_t targets = std::uniform_int_distribution<std::size_t>(1, 5)(rng);
  ct::CausalData data = bc::test::causal_data(targets);
  const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 80)(rng);
  // A coarse grid of speedups and a few odd ones, as a recorder may use any value 0..100.
  const std::vector<std::uint32_t> speedups{0, 0, 0, 5, 20, 40, 45, 50, 55, 60, 73, 80, 95, 100};
  for (std::size_t i = 0; i < n; ++i) {
    const auto target = std::uniform_int_distribution<std::uint32_t>(0, static_cast<std::uint32_t>(targets - 1))(rng);
    const std::uint32_t speedup = speedups[std::uniform_int_distribution<std::size_t>(0, speedups.size() - 1)(rng)];
    const std::int64_t effective = std::uniform_int_distribution<std::int64_t>(0, 2'000'000)(rng);
    // Few units, and often none, so that empty groups and baselines come up.
    const std::uint64_t progress = std::uniform_int_distribution<std::uint64_t>(0, 6)(rng);
    const std::int64_t delay = std::uniform_int_distribution<std::int64_t>(0, 500'000)(rng) * speedup / 100;
    bc::test::add(data, target, speedup, effective, progress, delay);
  }
  return data;
}

void check_estimate(const bc::Estimate& got, std::optional<double> speedup, std::size_t experiments,
                    std::size_t baseline) {
  CHECK(got.experiments == experiments);
  REQUIRE(got.speedup.has_value() == speedup.has_value());
  if (!speedup) {
    CHECK_FALSE(got.interval);
    return;
  }
  CHECK(*got.speedup == *speedup);  // exactly: the same sums in the same order
  if (got.interval) {
    CHECK(experiments >= 2);
    CHECK(baseline >= 2);
    CHECK(got.interval->low <= *speedup);
    CHECK(*speedup <= got.interval->high);
  } else {
    CHECK((experiments < 2 || baseline < 2));
  }
}

std::vector<bc::Flag> naive_flags(const bc::TargetResult& r) {
  std::vector<bc::Flag> flags;
  const bc::Estimate& m = r.summary;
  if (r.cost_share >= 0.05 && m.interval && m.interval->high < 0.125 * r.cost_share)
    flags.push_back(bc::Flag::off_critical_path);
  if (m.speedup && r.top.speedup && m.interval && m.interval->low > 0 && *r.top.speedup < 1.25 * *m.speedup)
    flags.push_back(bc::Flag::plateau);
  const auto below = [](const bc::Estimate& e) {
    return e.interval && e.interval->high < 0 && e.speedup && *e.speedup <= -0.05;
  };
  bool slower = below(m) || below(r.top);
  for (const bc::CurvePoint& p : r.curve)
    if (p.speedup > 0 && p.estimate.experiments >= 2 && below(p.estimate)) slower = true;
  if (slower) flags.push_back(bc::Flag::contention);
  if (m.experiments < 3) flags.push_back(bc::Flag::too_few);
  return flags;
}

}  // namespace

TEST_CASE("the analysis agrees with a naive recount on random experiments") {
  std::mt19937 rng(20260301);
  for (int round = 0; round < 300; ++round) {
    CAPTURE(round);
    const ct::CausalData data = random_experiments(rng);
    std::vector<double> shares;
    for (std::size_t t = 0; t < data.targets.size(); ++t)
      shares.push_back(std::uniform_int_distribution<int>(0, 4)(rng) * 0.1);
    const bc::CausalAnalysis a = bc::analyze(data, 0, shares);
    const auto at_zero = [](const ct::CausalExperiment& e) { return e.speedup == 0; };
    const std::size_t baseline = naive_count(data, at_zero);
    CHECK(a.baseline_experiments == baseline);
    REQUIRE(a.targets.size() == data.targets.size());
    std::set<std::uint32_t> seen;
    for (const bc::TargetResult& r : a.targets) {
      CAPTURE(r.target);
      CHECK(seen.insert(r.target).second);
      CHECK(r.cost_share == shares[r.target]);
      std::set<std::uint32_t> tried;
      for (const ct::CausalExperiment& e : data.experiments)
        if (e.target == r.target) tried.insert(e.speedup);
      REQUIRE(r.curve.size() == tried.size());
      auto next = tried.begin();
      for (const bc::CurvePoint& p : r.curve) {
        CHECK(p.speedup == *next++);
        const auto in = [&](const ct::CausalExperiment& e) { return e.target == r.target && e.speedup == p.speedup; };
        check_estimate(p.estimate, naive_speedup(data, in), naive_count(data, in), baseline);
      }
      const auto band = [&](std::uint32_t lo, std::uint32_t hi) {
        return [&, lo, hi](const ct::CausalExperiment& e) {
          return e.target == r.target && e.speedup >= lo && e.speedup <= hi;
        };
      };
      check_estimate(r.summary, naive_speedup(data, band(40, 60)), naive_count(data, band(40, 60)), baseline);
      check_estimate(r.top, naive_speedup(data, band(80, 100)), naive_count(data, band(80, 100)), baseline);
      CHECK(r.flags == naive_flags(r));
    }
    for (std::size_t i = 1; i < a.targets.size(); ++i) {
      const bc::TargetResult &p = a.targets[i - 1], &q = a.targets[i];
      CAPTURE(i);
      if (!p.summary.speedup) {
        CHECK_FALSE(q.summary.speedup);
      }
      if (p.summary.speedup && q.summary.speedup) CHECK(*p.summary.speedup >= *q.summary.speedup);
      const bool tied = p.summary.speedup == q.summary.speedup;  // both absent, or equal
      if (tied) CHECK(p.cost_share >= q.cost_share);
      if (tied && p.cost_share == q.cost_share) CHECK(p.target < q.target);
    }
  }
}

TEST_CASE("the analysis is the same on every run: its bootstrap has a fixed seed") {
  std::mt19937 rng(7);
  const ct::CausalData data = random_experiments(rng);
  const std::vector<double> shares(data.targets.size(), 0.2);
  const bc::CausalAnalysis a = bc::analyze(data, 0, shares), b = bc::analyze(data, 0, shares);
  REQUIRE(a.targets.size() == b.targets.size());
  for (std::size_t i = 0; i < a.targets.size(); ++i) {
    const bc::Estimate &x = a.targets[i].summary, &y = b.targets[i].summary;
    CHECK(x.speedup == y.speedup);
    REQUIRE(x.interval.has_value() == y.interval.has_value());
    if (x.interval) {
      CHECK(x.interval->low == y.interval->low);
      CHECK(x.interval->high == y.interval->high);
    }
  }
}
