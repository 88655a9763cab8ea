// Little's law's integral at a latency point (recorder-agent/src/causal/in_flight.h) against a
// deliberately naive one: the number of requests in flight summed nanosecond by nanosecond over
// the window, from the same random arrivals and departures. The clock starts near 2^63, as
// System.nanoTime may, so the time sums wrap many times and the difference must still be exact.

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "causal/in_flight.h"

using bn::agent::LatencySums;

namespace {

struct Request {
  std::uint64_t arrival;
  std::uint64_t departure;
};

// What the runtime would read at `now`: the requests arrived and departed by then.
LatencySums read_at(const std::vector<Request>& requests, std::uint64_t now) {
  LatencySums s;
  s.now = now;
  for (const Request& r : requests) {
    if (r.arrival <= now) {
      ++s.arrivals;
      s.arrival_times += r.arrival;
    }
    if (r.departure <= now) {
      ++s.departures;
      s.departure_times += r.departure;
    }
  }
  return s;
}

// Σ over each nanosecond t in [t0, t1) of the requests in flight at t (arrived by t, not departed).
std::int64_t naive_area(const std::vector<Request>& requests, std::uint64_t t0, std::uint64_t t1) {
  std::int64_t area = 0;
  for (std::uint64_t t = t0; t < t1; ++t)
    for (const Request& r : requests)
      if (r.arrival <= t && r.departure > t) ++area;
  return area;
}

}  // namespace

TEST_CASE("the in-flight integral between two readings equals the naive sum, through wrapped sums") {
  std::mt19937_64 random(7);
  const std::uint64_t origin = (std::uint64_t{1} << 63) - 2'000;
  for (int round = 0; round < 50; ++round) {
    std::vector<Request> requests;
    const auto n = 1 + random() % 40;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t arrival = origin + random() % 3'000;
      requests.push_back({arrival, arrival + random() % 1'500});
    }
    const std::uint64_t t0 = origin + random() % 2'000;
    const std::uint64_t t1 = t0 + random() % 2'000;
    INFO("round " << round);
    CHECK(bn::agent::in_flight_between(read_at(requests, t0), read_at(requests, t1)) == naive_area(requests, t0, t1));
  }
}

TEST_CASE("one request in flight through a window counts the window's length") {
  const std::vector<Request> one{{100, 10'000}};
  CHECK(bn::agent::in_flight_between(read_at(one, 1'000), read_at(one, 4'000)) == 3'000);
  // Arrived and departed within the window: its latency.
  CHECK(bn::agent::in_flight_between(read_at(one, 0), read_at(one, 20'000)) == 9'900);
}
