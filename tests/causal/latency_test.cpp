// The analysis at a latency point (docs/causal.md, "Latency"): the estimate is the relative
// reduction of Little's law's mean latency, time in flight per arrival, checked against a naive
// model that knows each request's latency: a request of a part A and a part B, A sped up
// virtually, and the mean of the requests' own latencies, pooled over the experiments.

#include <doctest/doctest.h>

#include <numeric>
#include <random>
#include <vector>

#include "bn/causal/analysis.h"
#include "causal_builder.h"

namespace bc = bn::causal;
namespace ct = bn::calltree;
using bc::test::add_latency;
using bc::test::latency_data;

namespace {

// An experiment of `latencies`, requests wholly within it: their area is the sum of latencies.
void add_requests(ct::CausalData& data, std::uint32_t speedup, const std::vector<std::int64_t>& latencies) {
  add_latency(data, 0, speedup, std::accumulate(latencies.begin(), latencies.end(), std::int64_t{0}), latencies.size());
}

double mean(const std::vector<std::vector<std::int64_t>>& experiments) {
  double sum = 0, n = 0;
  for (const auto& e : experiments)
    for (const std::int64_t l : e) {
      sum += static_cast<double>(l);
      ++n;
    }
  return sum / n;
}

const bc::CurvePoint& point_at(const bc::TargetResult& r, std::uint32_t speedup) {
  for (const bc::CurvePoint& p : r.curve)
    if (p.speedup == speedup) return p;
  FAIL("no point at " << speedup);
  return r.curve.front();
}

}  // namespace

TEST_CASE("half off a part of three quarters of each request shortens the mean latency by 37.5%") {
  ct::CausalData data = latency_data(1);
  // A = 3 ms, B = 1 ms: 4 ms a request; at 50%, 2.5 ms.
  add_latency(data, 0, 0, 40'000'000, 10);
  add_latency(data, 0, 0, 80'000'000, 20);
  // The pauses lengthened the experiments, not the (virtual) time in flight.
  add_latency(data, 0, 50, 25'000'000, 10, 1'000'000'000, 300'000'000);
  add_latency(data, 0, 50, 50'000'000, 20, 1'000'000'000, 300'000'000);
  const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.75});
  const bc::TargetResult& r = a.targets.at(0);
  CHECK(*point_at(r, 0).estimate.speedup == doctest::Approx(0.0));
  CHECK(*point_at(r, 50).estimate.speedup == doctest::Approx(0.375));
  CHECK(*r.summary.speedup == doctest::Approx(0.375));
  REQUIRE(r.summary.interval);
  CHECK(r.summary.interval->low == doctest::Approx(0.375));
}

TEST_CASE("a longer latency reads as a negative speedup, and no arrivals as no estimate") {
  ct::CausalData data = latency_data(2);
  add_latency(data, 0, 0, 10'000, 10);
  add_latency(data, 0, 0, 10'000, 10);
  add_latency(data, 0, 50, 30'000, 20);  // 1500 ns a request against 1000
  add_latency(data, 1, 50, 5'000, 0);    // time in flight, nobody arrived: no rate
  const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.1, 0.1});
  for (const bc::TargetResult& r : a.targets) {
    if (r.target == 0) CHECK(*point_at(r, 50).estimate.speedup == doctest::Approx(-0.5));
    if (r.target == 1) CHECK_FALSE(point_at(r, 50).estimate.speedup.has_value());
  }
}

TEST_CASE("the estimate equals the naive model's reduction of the mean request latency") {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> count(1, 30);
  std::uniform_int_distribution<std::int64_t> part(1'000, 9'000);
  std::uniform_int_distribution<int> speedup_step(0, 4);
  for (int round = 0; round < 100; ++round) {
    ct::CausalData data = latency_data(1);
    std::vector<std::vector<std::int64_t>> base, sped;
    for (int e = 0; e < 12; ++e) {
      const auto speedup = static_cast<std::uint32_t>(25 * speedup_step(rng));
      std::vector<std::int64_t> latencies;
      for (int i = count(rng); i > 0; --i) {
        const std::int64_t a = part(rng), b = part(rng);
        latencies.push_back(a - a * speedup / 100 + b);  // A sped up by `speedup`
      }
      add_requests(data, speedup, latencies);
      if (speedup == 0) base.push_back(latencies);
      if (bc::kSummaryBand.holds(speedup)) sped.push_back(latencies);
    }
    const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.5});
    const bc::TargetResult& r = a.targets.at(0);
    INFO("round " << round);
    if (base.empty() || sped.empty()) {
      CHECK_FALSE(r.summary.speedup.has_value());
      continue;
    }
    REQUIRE(r.summary.speedup.has_value());
    CHECK(*r.summary.speedup == doctest::Approx(1 - mean(sped) / mean(base)));
  }
}
