#pragma once
// pprof's protobuf profile (github.com/google/pprof, proto/profile.proto), the format of Go's
// runtime/pprof, gperftools, Pyroscope, Parca and async-profiler `-o pprof`; plain or gzipped
// (pprof itself writes gzip). docs/formats.md has the mapping in both directions.
//
// Reading: every Sample becomes a stack (location_id[0] is the leaf; a Location's lines list
// inlined functions first and the caller last) whose costs are its values: the one chosen by
// ImportOptions::sample_type (default: the file's default_sample_type, else the last type, as
// pprof does) is metric 0, every other sample type an extra metric (metric.h) in file order. Function names go through
// normalize_frame, so Java frames get the names the agent and the collapsed import give them. The whole decompressed
// message is held in memory (protobuf messages are at most 2 GiB); samples are decoded one at a time, so memory is that
// plus the call tree, never one object per sample.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <span>
#include <string_view>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/import_options.h"

namespace bn::calltree {

// Throws bn::Error "source: pprof: what at byte N" (N in the decompressed message).
CallTree read_pprof(const std::filesystem::path& path, const ImportOptions& options = {});
CallTree read_pprof_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                          const ImportOptions& options = {});

// True if `head`, the first decompressed bytes of a file (up to 256), looks like a pprof
// Profile rather than text: it starts with a Profile field and holds a byte no text has.
bool looks_like_pprof(std::span<const std::byte> head);

// Writes `tree` as an uncompressed Profile: one sample type per metric (metric 0 first and the
// default_sample_type), one Function and Location per method, one Sample per node with a nonzero
// cost and per leaf (zero costs), so reading it back gives the same tree and metrics. Throws bn::Error if the stream
// fails.
void write_pprof(const CallTree& tree, std::ostream& out);

}  // namespace bn::calltree
