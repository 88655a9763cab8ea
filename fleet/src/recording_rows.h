#pragma once
// A recording as the rows of `samples` it becomes (schema.h), before they are encoded: with
// per-sample records that account for its samples, one row per minute, thread class and stack for
// the samples and their measured CPU time; otherwise one per stack and metric, dated at its
// start. A snapshot's growth since the previous snapshot is the difference of their rows.

#include <cstdint>
#include <string>
#include <vector>

#include "bn/fleet/push.h"
#include "stack_trie.h"

namespace bn::fleet::detail {

struct Metric {
  std::string name, unit;
};

struct SampleRow {
  std::uint32_t bucket = 0;  // Unix seconds, a multiple of kBucketSeconds
  std::string thread_class;  // empty without per-sample records
  std::uint64_t stack = 0;
  std::uint32_t metric = 0;  // index in RecordingRows::metrics
  std::int64_t value = 0;
};

struct RecordingRows {
  std::vector<Metric> metrics;  // cpu-time first when the records give it, then the tree's
  std::vector<SampleRow> rows;
};

// Samples taken within one minute share a time bucket: the resolution of from= and to=.
inline constexpr std::int64_t kBucketSeconds = 60;
std::uint32_t bucket_of(std::int64_t unix_seconds);

RecordingRows recording_rows(const Recording& recording, const StackTrie& trie);

// `now` less `before`, row by row (a row missing from one side counts 0 there); rows that come
// to 0 are dropped. Metrics are matched by name; `now`'s list gains any only `before` has.
void subtract_rows(RecordingRows& now, const RecordingRows& before);

}  // namespace bn::fleet::detail
