#pragma once
// When to take the next sample. Intervals are drawn uniformly from [0.5, 1.5] × the mean
// (seed 000 sec. 5.1: randomly varied intervals sample more representatively than a fixed
// period, which can lock onto periodic behaviour), and the mean is stretched so the agent's
// measured cost stays within maxoverhead (seed 001 DYPER: a guaranteed maximum overhead,
// enforced by varying the time between samples).

#include <cstdint>

namespace bn::agent {

class Pacer {
 public:
  // `max_overhead` is a fraction of one CPU; 0 = unbounded.
  Pacer(std::int64_t interval_ns, double max_overhead, std::uint64_t seed);

  // The cost of one tick: the sampler's CPU time plus the wall time threads were held for
  // their stacks (an upper bound: it includes handshake latency). The first tick also pays
  // one-time costs (naming every thread, resolving the first methods), so it counts towards
  // the total but not towards the average that sets the interval; so does the part
  // `one_time_ns` of a later tick's cost (setting up something used from then on).
  void record_tick(std::int64_t cost_ns, std::int64_t one_time_ns = 0);
  std::int64_t next_wait_ns();

  std::int64_t total_cost_ns() const { return total_cost_ns_; }
  std::int64_t mean_interval_ns() const;
  std::uint64_t stretched_ticks() const { return stretched_; }

 private:
  double uniform();  // [0, 1)

  std::int64_t interval_ns_;
  double max_overhead_;
  std::uint64_t state_;
  double average_cost_ns_ = 0;  // exponential moving average of the tick cost
  std::uint64_t ticks_ = 0;
  std::int64_t total_cost_ns_ = 0;
  std::uint64_t stretched_ = 0;
};

}  // namespace bn::agent
