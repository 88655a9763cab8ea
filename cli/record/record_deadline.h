#pragma once
// How long `bottlenecks record --pid` lets a recording take to end by itself before it asks the
// agent to stop it (cmd_record.cpp): a sampler starved of CPU or a slow disk must not leave the
// user waiting for ever, nor the target recording after `record` gave up.

#include <chrono>
#include <optional>
#include <string>

namespace bn::cli {

// Seconds in an agent duration ("30s", "1.5m", "500ms", "2h"; empty: 0). A unit below the
// millisecond counts as seconds: this only bounds a wait, and the agent parses the value itself.
double duration_seconds(const std::string& text);

// --delay, --duration and a minute more. None without --duration, nor in the call-tree mode,
// whose --duration counts from the first instrumented call, which an idle server may not make
// for hours: Ctrl-C ends those.
std::optional<std::chrono::seconds> own_end_within(const std::string& mode, const std::string& delay,
                                                   const std::string& duration);

}  // namespace bn::cli
