#pragma once
// What a profile says about itself: how it was recorded and what its costs measure.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bn::calltree {

struct Metadata {
  std::string mode;    // how it was recorded: "sample", "calltree", "collapsed", ...
  std::string metric;  // what a cost counts: "samples", "cpu-time", "instructions", "calls"
  std::string unit;    // "samples", "ns", "count", ...
  std::string jvm;     // JVM name and version, when recorded by the agent
  std::string command_line;
  std::int64_t start_time_unix_ns = 0;  // 0 = unknown
  std::int64_t duration_ns = 0;         // 0 = unknown
  std::int64_t sample_interval_ns = 0;  // 0 = not a sampling profile
  // Anything else, in file order (recorder statistics, source file of an import, ...).
  std::vector<std::pair<std::string, std::string>> extra;

  // Value of an extra key, if present.
  std::optional<std::string_view> find_extra(std::string_view key) const;
  // Sets an extra key, replacing an existing value.
  void set_extra(std::string key, std::string value);
  // Keeps one entry per extra key, the last value given for it, at the key's first position.
  // Linear: for readers that append entries as they come.
  void merge_repeated_extras();
};

}  // namespace bn::calltree
