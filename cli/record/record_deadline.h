#pragma once
// How long `bottlenecks record --pid` lets a recording take to end by itself before it asks the
// agent to stop it (cmd_record.cpp): a sampler starved of CPU or a slow disk must not leave the
// user waiting for ever, nor the target recording after `record` gave up.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace bn::cli {

// --delay, --duration and a minute more, the durations as the agent parses them. None without
// --duration, nor in a mode whose duration counts from its first event (the call-tree mode's
// first instrumented call, which an idle server may not make for hours): Ctrl-C ends those.
// An empty mode is the agent's default.
std::optional<std::chrono::seconds> own_end_within(std::string_view mode, const std::string& delay,
                                                   const std::string& duration);

}  // namespace bn::cli
