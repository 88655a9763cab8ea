#pragma once
// What `push` and `record --push` share: the labels of the command line, and a recording file
// loaded as the store takes it (docs/fleet.md, "Pushing").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bn/calltree/profile_loader.h"
#include "bn/calltree/sample_data.h"
#include "bn/fleet/push.h"

namespace bn::cli {

// --label KEY=VALUE...: service and version required, host defaulting to this machine's name.
// Throws bn::Error naming the bad label.
fleet::PushLabels push_labels(const std::vector<std::string>& labels);

struct RecordingFile {
  calltree::OpenedProfile opened;
  calltree::SampleData samples;
  std::int64_t start = 0;
  std::string file;
  std::uint64_t id = 0;

  // As push_recording takes it, its rows dated `at` (its start unless a snapshot's time).
  fleet::Recording recording(std::optional<std::int64_t> at = std::nullopt) const;
};

struct RecordingLoad {
  std::optional<std::int64_t> time;  // --time: the recording's start, whatever it says
  bool keep_signatures = false;
  std::string sample_type;
  std::optional<std::uint64_t> id;  // the file's content_id, if known already
};

// Throws bn::Error naming the file.
RecordingFile load_recording(const std::string& file, const RecordingLoad& load);

}  // namespace bn::cli
