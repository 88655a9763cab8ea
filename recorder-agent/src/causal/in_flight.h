#pragma once
// Little's law at a latency point (Coz's latency progress points, Curtsinger and Berger, SOSP
// 2015): the mean latency is W = L / λ, the mean number of requests in flight over the arrival
// rate, or over an experiment the integral of the number in flight divided by the arrivals. Coz
// samples the number in flight; the runtime (Latency.java) keeps instead the sums of the
// arrivals' and departures' times, from which the integral up to a reading at time t is exact:
//
//   ∫ L dt = Σ_arrivals (t − a) − Σ_departures (t − d) = (arrivals − departures)·t − (Σa − Σd)
//
// and over an experiment it is the difference of two readings. Times are virtual (the pauses
// inserted taken out), so the integral is the one a real speedup would give. The sums wrap (they
// add up System.nanoTime values); the arithmetic is modulo 2^64, and the difference of two
// readings, a few requests times a few seconds, is exact.

#include <cstdint>

namespace bn::agent {

// One reading of a latency point: counts, sums of virtual times, and the reading's own time, no
// earlier than any event counted.
struct LatencySums {
  std::uint64_t arrivals = 0;
  std::uint64_t arrival_times = 0;
  std::uint64_t departures = 0;
  std::uint64_t departure_times = 0;
  std::uint64_t now = 0;
};

// ∫ L dt from the first event up to `s.now`, modulo 2^64.
inline std::uint64_t in_flight_integral(const LatencySums& s) {
  return (s.arrivals - s.departures) * s.now - (s.arrival_times - s.departure_times);
}

// ∫ L dt between two readings, in ns x requests.
inline std::int64_t in_flight_between(const LatencySums& before, const LatencySums& after) {
  return static_cast<std::int64_t>(in_flight_integral(after) - in_flight_integral(before));
}

}  // namespace bn::agent
