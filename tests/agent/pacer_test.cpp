// The sampler's pacing (recorder-agent/src/sample/pacer.cpp): intervals jittered uniformly around the
// mean (seed 000 sec. 5.1), stretched to keep a measured cost under maxoverhead (seed 001).

#include "sample/pacer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

using bn::agent::Pacer;

TEST_CASE("intervals are drawn uniformly from half to one and a half times the mean") {
  Pacer pacer(20'000'000, 0, 12345);
  const int n = 20000;
  double sum = 0, sum_sq = 0;
  std::int64_t lo = INT64_MAX, hi = 0;
  for (int i = 0; i < n; ++i) {
    const std::int64_t w = pacer.next_wait_ns();
    lo = std::min(lo, w);
    hi = std::max(hi, w);
    sum += static_cast<double>(w);
    sum_sq += static_cast<double>(w) * static_cast<double>(w);
  }
  const double mean = sum / n;
  const double sd = std::sqrt(sum_sq / n - mean * mean);
  CHECK(lo >= 10'000'000);
  CHECK(hi <= 30'000'000);
  CHECK(lo < 10'500'000);
  CHECK(hi > 29'500'000);
  CHECK(mean == doctest::Approx(20e6).epsilon(0.01));
  CHECK(sd == doctest::Approx(20e6 / std::sqrt(12.0)).epsilon(0.03));  // uniform on [10, 30] ms
  CHECK(pacer.stretched_ticks() == 0);
}

TEST_CASE("without a bound the mean interval never changes, whatever a tick costs") {
  Pacer pacer(10'000'000, 0, 1);
  for (int i = 0; i < 100; ++i) pacer.record_tick(5'000'000);
  CHECK(pacer.mean_interval_ns() == 10'000'000);
  CHECK(pacer.total_cost_ns() == 500'000'000);
}

TEST_CASE("maxoverhead stretches the mean interval to cost divided by the bound") {
  Pacer pacer(1'000'000, 0.01, 7);
  pacer.record_tick(50'000'000);  // the first tick's one-time costs do not count
  CHECK(pacer.mean_interval_ns() == 1'000'000);
  for (int i = 0; i < 200; ++i) pacer.record_tick(200'000);  // 0.2 ms per tick at 1%: 20 ms
  CHECK(pacer.mean_interval_ns() == doctest::Approx(20'000'000).epsilon(0.01));
  pacer.next_wait_ns();
  CHECK(pacer.stretched_ticks() == 1);
  for (int i = 0; i < 200; ++i) pacer.record_tick(1'000);  // cheap again: back to the base
  CHECK(pacer.mean_interval_ns() == 1'000'000);
  CHECK(pacer.total_cost_ns() == 50'000'000 + 200 * 200'000 + 200 * 1'000);
}

TEST_CASE("a one-time cost in a later tick counts towards the total, not the interval") {
  Pacer pacer(1'000'000, 0.01, 3);
  for (int i = 0; i < 50; ++i) pacer.record_tick(5'000);  // 5 us per tick: 0.5% at 1 ms
  pacer.record_tick(60'005'000, 60'000'000);              // e.g. loading the classes of a lookup
  CHECK(pacer.mean_interval_ns() == 1'000'000);
  CHECK(pacer.total_cost_ns() == 51 * 5'000 + 60'000'000);
}
