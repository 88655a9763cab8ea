#pragma once
// The kinds of value the recorder's options take, parsed the same way by the agent and by
// `bottlenecks record` (which bounds its own wait by --delay and --duration).

#include <cstdint>
#include <string_view>

namespace bn::agent {

// "20ms", "1.5s", "500us", "2m", "1h": nanoseconds. A unit is required, so that "interval=20"
// is not ambiguous.
bool parse_duration(std::string_view text, std::int64_t& ns);
// "1%", "0.5": a fraction in (0, 1].
bool parse_percent(std::string_view text, double& fraction);
// "512m", "2g", "65536": bytes, with an optional binary suffix k, m, g or t.
bool parse_size(std::string_view text, std::uint64_t& bytes);
// "", "true", "yes", "1"; "false", "no", "0" (a bare `key` is true).
bool parse_bool(std::string_view text, bool& value);

}  // namespace bn::agent
