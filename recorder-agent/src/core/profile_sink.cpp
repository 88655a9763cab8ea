#include "core/profile_sink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "bn/calltree/profile_writer.h"

namespace bn::agent {
namespace {

// The agent compresses its chunks at zstd's default level, not the analyzer's 9: the flusher's CPU
// is taken from the program. On javac compiling its own sources (30M calling contexts, 155 MB of
// raw chunks) level 9 took 2.2 s of CPU and level 3 0.4 s, for a file of 14.2 MB instead of 10.1
// (bench/LOG.md, "Tenth round"). The profile is the same at any level.
constexpr int kAgentCompressionLevel = 3;

// Runs `f`, turning any exception into an error: nothing may propagate into the JVM.
template <class F>
Status guarded(const std::string& path, F&& f) {
  try {
    f();
    return Status();
  } catch (const std::bad_alloc&) {
    return Status::error("cannot write profile '" + path + "': out of memory");
  } catch (const std::exception& e) {
    return Status::error(e.what());
  }
}

std::size_t metric_count(const std::vector<ProfileSink::Part>& parts) {
  std::size_t n = 0;
  for (const ProfileSink::Part& part : parts) n += part.metrics.size();
  return std::max<std::size_t>(n, 1);
}

}  // namespace

ProfileSink::ProfileSink(std::string path, std::vector<Part> parts, bool keep_totals)
    : path_(std::move(path)),
      keep_totals_(keep_totals),
      tree_(metric_count(parts), keep_totals ? FrameTree::Totals::kKept : FrameTree::Totals::kDropped) {
  for (Part& part : parts) {
    PartState state;
    state.mode = part.mode;
    state.metadata.mode = part.mode;
    state.first_metric = metrics_.size();
    parts_.push_back(std::move(state));
    for (calltree::MetricSpec& m : part.metrics) metrics_.push_back(std::move(m));
  }
  if (metrics_.empty()) metrics_.push_back({"samples", "samples"});
}

ProfileSink::~ProfileSink() {
  if (file_ != nullptr) std::fclose(file_);
}

calltree::Metadata ProfileSink::merged() const {
  if (parts_.size() == 1) return parts_[0].metadata;
  std::vector<calltree::Metadata> all;
  all.reserve(parts_.size());
  for (const PartState& part : parts_) all.push_back(part.metadata);
  return merge_parts(all, metrics_[0]);
}

Status ProfileSink::open(std::size_t part, const calltree::Metadata& metadata) {
  const std::lock_guard<std::mutex> lock(mutex_);
  Status status = guarded(path_, [&] { parts_[part].metadata = metadata; });
  if (!status.ok()) return status;
  if (writer_ != nullptr) return guarded(path_, [&] { writer_->write_metadata(merged()); });
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) return Status::error("cannot create profile '" + path_ + "': " + std::strerror(errno));
  return guarded(path_, [&] {
    writer_ =
        std::make_unique<calltree::ProfileStreamWriter>(file_, calltree::kMaxChunkRawSize, kAgentCompressionLevel);
    writer_->write_metadata(merged());
    const std::span<const calltree::MetricSpec> extra = std::span(metrics_).subspan(1);
    if (!extra.empty()) writer_->declare_extra_metrics(extra);
    std::fflush(file_);
  });
}

Status ProfileSink::flush(std::size_t part, const ChunkEncoder& ancillary) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (writer_ == nullptr) return Status();
  return guarded(path_, [&] {
    PartState& state = parts_[part];
    FrameTree::Pending& p = pending_;
    tree_.take_pending(p);
    std::vector<std::string_view> strings(p.strings.begin(), p.strings.end());
    if (!strings.empty()) writer_->append_strings(strings);
    if (!p.parents.empty()) writer_->append_nodes(p.parents, p.methods);
    if (!p.costs.empty()) writer_->add_costs(p.costs);
    for (std::size_t m = 0; m < p.more_costs.size(); ++m)
      if (!p.more_costs[m].empty()) writer_->add_metric_costs(static_cast<std::uint32_t>(m + 1), p.more_costs[m]);
    // Since this part's previous flush, other parts' flushes may have appended nodes too.
    const std::span<const calltree::NodeId> new_parents = tree_.parents_from(state.nodes_seen);
    state.nodes_seen = tree_.nodes();
    for (const AncillaryChunk& chunk : ancillary(new_parents)) writer_->write_chunk(chunk.tag, chunk.bytes);
    if (std::fflush(file_) != 0)
      throw std::runtime_error("cannot write profile '" + path_ + "': " + std::strerror(errno));
  });
}

Status ProfileSink::finish(std::size_t part, const calltree::Metadata& metadata) {
  const std::lock_guard<std::mutex> lock(mutex_);
  Status status = guarded(path_, [&] { parts_[part].metadata = metadata; });
  parts_[part].finished = true;
  const Status completed = complete_if_done();
  return status.ok() ? completed : status;
}

Status ProfileSink::withdraw(std::size_t part) {
  const std::lock_guard<std::mutex> lock(mutex_);
  parts_[part].withdrawn = true;
  return complete_if_done();
}

Status ProfileSink::complete_if_done() {
  if (writer_ == nullptr) return Status();
  bool any_finished = false;
  for (const PartState& part : parts_) {
    if (!part.finished && !part.withdrawn) return Status();
    any_finished = any_finished || part.finished;
  }
  Status status;
  if (any_finished) {
    status = guarded(path_, [&] {
      writer_->write_metadata(merged());
      writer_->finish();
    });
  }
  writer_.reset();
  if (std::fclose(file_) != 0 && status.ok())
    status = Status::error("cannot write profile '" + path_ + "': " + std::strerror(errno));
  file_ = nullptr;
  // The recording has ended: its tree's memory goes back (the engines outlive it, engine.h).
  tree_ = FrameTree(tree_.metrics(), keep_totals_ ? FrameTree::Totals::kKept : FrameTree::Totals::kDropped);
  pending_ = FrameTree::Pending();
  return status;
}

Status ProfileSink::snapshot(std::size_t part, const std::string& path, const calltree::Metadata& metadata) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (parts_.size() == 1) return write_snapshot(path, tree_, metadata);
  return guarded(path, [&] {
    std::vector<calltree::Metadata> all;
    for (const PartState& p : parts_) all.push_back(p.metadata);
    all[part] = metadata;
    calltree::write_profile(tree_.build(merge_parts(all, metrics_[0])), path);
  });
}

calltree::Metadata merge_parts(std::span<const calltree::Metadata> parts, const calltree::MetricSpec& metric0) {
  calltree::Metadata m;
  m.metric = metric0.name;
  m.unit = metric0.unit;
  for (const calltree::Metadata& part : parts) {
    m.mode += (m.mode.empty() ? "" : "+") + part.mode;
    if (m.jvm.empty()) m.jvm = part.jvm;
    if (m.command_line.empty()) m.command_line = part.command_line;
    if (m.start_time_unix_ns == 0) m.start_time_unix_ns = part.start_time_unix_ns;
    if (m.sample_interval_ns == 0) m.sample_interval_ns = part.sample_interval_ns;
    m.duration_ns = std::max(m.duration_ns, part.duration_ns);
    for (const auto& [key, value] : part.extra) m.extra.emplace_back(part.mode + "." + key, value);
  }
  return m;
}

Status write_snapshot(const std::string& path, const FrameTree& tree, const calltree::Metadata& metadata) {
  return guarded(path, [&] { calltree::write_profile(tree.build(metadata), path); });
}

}  // namespace bn::agent
