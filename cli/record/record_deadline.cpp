#include "record/record_deadline.h"

#include <cstdint>

#include "bn/agent/option_table.h"
#include "bn/agent/option_values.h"

namespace bn::cli {

std::optional<std::chrono::seconds> own_end_within(std::string_view mode, const std::string& delay,
                                                   const std::string& duration) {
  const bn::agent::Mode* m = mode.empty() ? &bn::agent::modes().front() : bn::agent::find_mode(mode);
  std::int64_t delay_ns = 0, duration_ns = 0;
  if (duration.empty() || m == nullptr || m->duration_from_first_event ||
      !bn::agent::parse_duration(duration, duration_ns) ||
      (!delay.empty() && !bn::agent::parse_duration(delay, delay_ns)))
    return std::nullopt;
  return std::chrono::seconds((delay_ns + duration_ns) / 1'000'000'000 + 60);
}

}  // namespace bn::cli
