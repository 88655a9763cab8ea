#include "measured_time.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "thread_state.h"

namespace bn::views::detail {

std::vector<std::uint64_t> measured_weights(const calltree::SampleData& samples) {
  std::vector<std::uint64_t> weight(samples.records.size(), 0);
  constexpr std::int64_t kNotSeen = std::numeric_limits<std::int64_t>::min();
  std::vector<std::int64_t> last_seen(samples.threads.size(), kNotSeen);
  // Per thread, its records since its last RUNNABLE one: what a CPU split's interval may span.
  std::vector<std::vector<std::uint32_t>> window(samples.threads.size());
  for (std::size_t k = 0; k < samples.ticks.size(); ++k) {
    const calltree::SampleTick& tick = samples.ticks[k];
    const std::int64_t since_previous_tick = k == 0 ? 0 : tick.time_ns - samples.ticks[k - 1].time_ns;
    for (std::uint32_t i = tick.first_record; i < tick.first_record + tick.record_count; ++i) {
      const calltree::SampleRecord& r = samples.records[i];
      const std::int64_t seen = std::exchange(last_seen[r.thread], tick.time_ns);
      const auto span = static_cast<std::uint64_t>(seen == kNotSeen ? since_previous_tick : tick.time_ns - seen);
      std::vector<std::uint32_t>& earlier = window[r.thread];
      if (has_cpu_split(r)) {
        const std::uint64_t measured = r.run_ns + r.wait_ns;
        std::uint64_t excess = measured > span ? measured - span : 0;
        weight[i] = std::max(measured, span);
        for (auto q = earlier.rbegin(); q != earlier.rend() && excess > 0; ++q) {
          const std::uint64_t given = std::min(excess, weight[*q]);
          weight[*q] -= given;
          excess -= given;
        }
        earlier.clear();
      } else {
        weight[i] = span;
        if ((r.state & calltree::thread_state::kRunnable) != 0)
          earlier.clear();
        else
          earlier.push_back(i);
      }
    }
  }
  return weight;
}

}  // namespace bn::views::detail
