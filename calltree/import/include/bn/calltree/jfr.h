#pragma once
// JDK Flight Recorder files (`java -XX:StartFlightRecording`, `jcmd JFR.dump`, async-profiler
// `-o jfr`), plain or compressed. A file is a sequence of self-contained chunks (header,
// events, constant pools, a metadata event describing the event types); they are read one at a
// time, so memory is one chunk plus the call tree. docs/formats.md has the mapping.
//
// ImportOptions::sample_type picks the events whose stacks become the tree:
//   cpu           jdk.ExecutionSample      1 per event ("samples", the default)
//   native        jdk.NativeMethodSample   1 per event ("samples")
//   monitor-enter jdk.JavaMonitorEnter     its duration in ns
//   monitor-wait  jdk.JavaMonitorWait      its duration in ns
//   park          jdk.ThreadPark           its duration in ns
// Frames are `class.method` with the class in its internal form plus the method descriptor,
// put through normalize_frame, so they match the agent's and the collapsed import's names.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/import_options.h"

namespace bn::calltree {

// Throws bn::Error "source: JFR chunk K at byte N: what".
CallTree read_jfr(const std::filesystem::path& path, const ImportOptions& options = {});
CallTree read_jfr_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                        const ImportOptions& options = {});

// True if `head`, a file's first decompressed bytes, starts with a JFR chunk's magic "FLR\0".
bool is_jfr(std::span<const std::byte> head);

}  // namespace bn::calltree
