#include "sample/pacer.h"

#include <algorithm>

namespace bn::agent {
namespace {
// Weight of the newest tick in the moving average: reacts within ~10 ticks to a program that
// starts many threads, without letting one slow tick (a GC pause) stretch the interval.
constexpr double kAverageWeight = 0.1;
constexpr std::int64_t kMinWaitNs = 1'000'000;  // never two ticks back to back
}  // namespace

Pacer::Pacer(std::int64_t interval_ns, double max_overhead, std::uint64_t seed)
    : interval_ns_(interval_ns), max_overhead_(max_overhead), state_(seed | 1) {}

void Pacer::record_tick(std::int64_t cost_ns, std::int64_t one_time_ns) {
  cost_ns = std::max<std::int64_t>(cost_ns, 0);
  total_cost_ns_ += cost_ns;
  if (++ticks_ == 1) return;
  cost_ns = std::max<std::int64_t>(cost_ns - one_time_ns, 0);
  average_cost_ns_ = ticks_ == 2
                         ? static_cast<double>(cost_ns)
                         : average_cost_ns_ + kAverageWeight * (static_cast<double>(cost_ns) - average_cost_ns_);
}

std::int64_t Pacer::mean_interval_ns() const {
  if (max_overhead_ <= 0) return interval_ns_;
  return std::max(interval_ns_, static_cast<std::int64_t>(average_cost_ns_ / max_overhead_));
}

std::int64_t Pacer::next_wait_ns() {
  const std::int64_t mean = mean_interval_ns();
  if (mean > interval_ns_) ++stretched_;
  const auto wait = static_cast<std::int64_t>(static_cast<double>(mean) * (0.5 + uniform()));
  return std::max(wait, kMinWaitNs);
}

double Pacer::uniform() {
  // xorshift64*: cheap, no allocation, good enough to decorrelate sampling from the program.
  state_ ^= state_ >> 12;
  state_ ^= state_ << 25;
  state_ ^= state_ >> 27;
  const std::uint64_t r = state_ * 0x2545F4914F6CDD1DULL;
  return static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace bn::agent
