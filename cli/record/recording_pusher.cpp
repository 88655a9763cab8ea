#include "record/recording_pusher.h"

#include <sys/stat.h>

#include <chrono>
#include <iostream>

#include "bn/fleet/schema.h"
#include "bn/search/text.h"

namespace bn::cli {
namespace {

// The file's modification time in nanoseconds, 0 if it does not exist: the agent replaces the
// snapshot by a rename, so a new time is a new, complete snapshot.
std::int64_t modified_ns(const std::filesystem::path& file) {
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) return 0;
  return std::int64_t{status.st_mtim.tv_sec} * 1'000'000'000 + status.st_mtim.tv_nsec;
}

// How often the watcher looks for a new snapshot.
constexpr auto kPoll = std::chrono::milliseconds(250);

}  // namespace

RecordingPusher::RecordingPusher(fleet::FleetUrl url, fleet::PushLabels labels, std::filesystem::path output,
                                 bool every)
    : server_(std::move(url)), labels_(std::move(labels)), output_(std::move(output)) {
  fleet::check_schema(server_);
  if (every) watcher_ = std::thread([this] { watch(); });
}

RecordingPusher::~RecordingPusher() { stop_watching(); }

void RecordingPusher::stop_watching() {
  {
    const std::scoped_lock stopping(stop_lock_);
    stop_ = true;
  }
  stop_asked_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

void RecordingPusher::watch() {
  const std::filesystem::path snapshot = output_.string() + ".snapshot";
  std::int64_t seen = modified_ns(snapshot);  // one left from an earlier recording is not ours
  for (;;) {
    {
      std::unique_lock waiting(stop_lock_);
      if (stop_asked_.wait_for(waiting, kPoll, [this] { return stop_; })) return;
    }
    const std::int64_t modified = modified_ns(snapshot);
    if (modified == 0 || modified == seen) continue;
    seen = modified;
    const std::scoped_lock pushing(lock_);
    try {
      push(snapshot, true);
    } catch (const Error& e) {
      // The store may be down for a while; the next snapshot's growth includes this one's.
      std::cerr << "bottlenecks: warning: snapshot not pushed (the next one carries it): "
                << search::terminal_safe(e.what()) << '\n';
    }
  }
}

void RecordingPusher::push(const std::filesystem::path& file, bool snapshot) {
  RecordingFile loaded = load_recording(file.string(), {});
  // A snapshot's rows are dated when it was taken; the growth since it, at the end.
  const std::int64_t at = snapshot || last_ ? fleet::now_unix_seconds() : loaded.start;
  std::optional<fleet::Recording> since;
  if (last_) since.emplace(last_->file.recording(last_->at));
  const fleet::PushOutcome outcome =
      fleet::push_recording(server_, loaded.recording(at), labels_, {}, since ? &*since : nullptr);
  if (!outcome.pushed && !snapshot)
    std::cerr << "bottlenecks: " << search::terminal_safe(file.string()) << ": already in the store\n";
  last_ = Pushed{std::move(loaded), at};
}

void RecordingPusher::finish() {
  stop_watching();
  const std::scoped_lock pushing(lock_);
  push(output_, false);
  std::cout << "bottlenecks: pushed " << output_.string() << " to " << server_.url().server() << " (" << labels_.service
            << " " << labels_.version << ", host " << labels_.host << ")\n";
}

}  // namespace bn::cli
