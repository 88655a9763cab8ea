#pragma once
// Uploading one recording into the store (docs/fleet.md, "Pushing"): its frames and trie nodes,
// then its sample rows in batches, then its row in `recordings`, which makes it count. A push is
// idempotent per recording: a recording is named by a hash of its file's bytes, and one already
// in the store is not pushed again (and a query counts one push per recording even when two
// raced).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/fleet/clickhouse.h"

namespace bn::fleet {

// The slice a recording belongs to.
struct PushLabels {
  std::string service, version, host;
  std::vector<std::pair<std::string, std::string>> labels;  // free-form KEY=VALUE, sorted by key
};

struct Recording {
  const calltree::CallTree& tree;
  // Its per-sample records (empty when the format has none): with them, the samples are stored by
  // the minute and thread class in which they were taken, and their CPU time beside them.
  const calltree::SampleData& samples;
  std::int64_t start = 0;  // Unix seconds: the recording's own start, or what the user said
  // When its rows without a time of their own are dated, and the day that holds them: `start` for
  // a whole recording, the snapshot's time for the growth of a long recording since its last one.
  std::int64_t at = 0;
  std::string source;    // the file, for `recordings.source`
  std::string format;    // "native", "pprof", ...
  std::uint64_t id = 0;  // content_id of the file
};

// A 64-bit hash of the file's bytes (XXH3). Throws bn::Error naming the file if it cannot be read.
std::uint64_t content_id(const std::filesystem::path& file);

// Whether a recording of this content_id has been pushed (and counts).
bool in_store(const ClickHouse& server, std::uint64_t recording);

struct PushOutcome {
  bool pushed = false;      // false: the recording was in the store already
  std::uint64_t rows = 0;   // sample rows written
  std::uint64_t bytes = 0;  // RowBinary bytes sent, all tables, before compression
};

// Told the bytes of sample rows encoded so far (their number is known only at the end).
using PushProgress = std::function<void(std::uint64_t bytes)>;

// Throws bn::Error (the server's, or naming the recording) if any statement fails; then nothing
// of this push is counted. With `since`, an earlier snapshot of the same recording that was
// pushed, only what grew since then is stored (continuous profiling: each snapshot of a long
// recording holds everything so far), so the snapshots' pushes add up to the recording.
PushOutcome push_recording(const ClickHouse& server, const Recording& recording, const PushLabels& labels,
                           const PushProgress& progress = {}, const Recording* since = nullptr);

// The name of the metric a push derives from per-sample records: nanoseconds on a CPU.
inline constexpr std::string_view kCpuTime = "cpu-time";

}  // namespace bn::fleet
