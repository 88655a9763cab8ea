#pragma once
// `record --push URL`: the recording goes to a fleet store when it completes; with `--every D`
// the agent also rewrites FILE.snapshot every D (snapshot=) and each snapshot's growth since the
// last one pushed goes to the store as it appears, so a server profiled for weeks is in the store
// minute by minute and the pushes add up to the whole recording (docs/fleet.md, "Continuous
// profiling").

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "bn/fleet/clickhouse.h"
#include "fleet_push.h"

namespace bn::cli {

class RecordingPusher {
 public:
  // Checks the store's schema now, before a JVM runs for hours. With `every`, watches
  // `output`.snapshot from now on.
  RecordingPusher(fleet::FleetUrl url, fleet::PushLabels labels, std::filesystem::path output, bool every);
  RecordingPusher(const RecordingPusher&) = delete;
  RecordingPusher& operator=(const RecordingPusher&) = delete;
  ~RecordingPusher();

  // Once the recording is complete: stops watching and pushes the file, or what it holds beyond
  // the last snapshot pushed. Throws bn::Error naming the file.
  void finish();

 private:
  void watch();
  void stop_watching();
  // Pushes `file` (or its growth since last_) and makes it last_. Called with lock_ held.
  void push(const std::filesystem::path& file, bool snapshot);

  fleet::ClickHouse server_;
  fleet::PushLabels labels_;
  std::filesystem::path output_;
  std::mutex lock_;
  struct Pushed {
    RecordingFile file;
    std::int64_t at;  // when its rows were dated
  };
  std::optional<Pushed> last_;
  std::mutex stop_lock_;
  std::condition_variable stop_asked_;
  bool stop_ = false;
  std::thread watcher_;
};

}  // namespace bn::cli
