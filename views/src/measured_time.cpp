#include "measured_time.h"

#include <algorithm>
#include <limits>

#include "thread_state.h"

namespace bn::views::detail {
namespace {

constexpr std::int64_t kNotSeen = std::numeric_limits<std::int64_t>::min();

// Nanoseconds the record of thread `r` at tick k stands for, given the time of its previous
// record (kNotSeen for its first).
std::uint64_t span(const calltree::SampleData& samples, std::size_t k, std::int64_t previous) {
  const std::int64_t now = samples.ticks[k].time_ns;
  if (previous != kNotSeen) return static_cast<std::uint64_t>(now - previous);
  return k == 0 ? 0 : static_cast<std::uint64_t>(now - samples.ticks[k - 1].time_ns);
}

}  // namespace

MeasuredTime::MeasuredTime(const calltree::SampleData& samples) : samples_(samples) {
  // Backward through time: a split record's excess is paid by the thread's waiting records
  // before it, latest first, back to its previous RUNNABLE record. A record's span is known when
  // the thread's previous record is reached, so each record is settled one step late.
  struct Later {
    std::uint32_t record = 0;
    std::size_t tick = 0;
    bool pending = false;
  };
  std::vector<Later> later(samples.threads.size());
  std::vector<std::uint64_t> owed(samples.threads.size(), 0);
  auto settle = [&](std::uint32_t t, std::int64_t previous) {
    Later& l = later[t];
    if (!l.pending) return;
    const calltree::SampleRecord& r = samples.records[l.record];
    const std::uint64_t own = span(samples, l.tick, previous);
    if (has_cpu_split(r)) {
      const std::uint64_t measured = r.run_ns + r.wait_ns;
      owed[t] = measured > own ? measured - own : 0;
    } else if ((r.state & calltree::thread_state::kRunnable) != 0) {
      owed[t] = 0;
    } else if (owed[t] > 0 && own > 0) {
      const std::uint64_t given = std::min(owed[t], own);
      given_.emplace_back(l.record, given);
      owed[t] -= given;
    }
    l.pending = false;
  };
  for (std::size_t k = samples.ticks.size(); k-- > 0;) {
    const calltree::SampleTick& tick = samples.ticks[k];
    for (std::uint32_t i = tick.first_record; i < tick.first_record + tick.record_count; ++i) {
      const std::uint32_t t = samples.records[i].thread;
      settle(t, tick.time_ns);
      later[t] = {i, k, true};
    }
  }
  for (std::uint32_t t = 0; t < later.size(); ++t) settle(t, kNotSeen);
  std::sort(given_.begin(), given_.end());
}

MeasuredTime::Cursor::Cursor(const MeasuredTime& time)
    : time_(time), last_seen_(time.samples_.threads.size(), kNotSeen) {}

void MeasuredTime::Cursor::tick(std::size_t k, std::vector<std::uint64_t>& weights) {
  const calltree::SampleData& samples = time_.samples_;
  const calltree::SampleTick& tick = samples.ticks[k];
  weights.resize(tick.record_count);
  for (std::uint32_t j = 0; j < tick.record_count; ++j) {
    const std::uint32_t i = tick.first_record + j;
    const calltree::SampleRecord& r = samples.records[i];
    std::uint64_t w = span(samples, k, std::exchange(last_seen_[r.thread], tick.time_ns));
    if (has_cpu_split(r)) w = std::max(w, r.run_ns + r.wait_ns);
    while (given_ < time_.given_.size() && time_.given_[given_].first < i) ++given_;
    if (given_ < time_.given_.size() && time_.given_[given_].first == i) w -= time_.given_[given_].second;
    weights[j] = w;
  }
}

}  // namespace bn::views::detail
