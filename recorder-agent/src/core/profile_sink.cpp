#include "core/profile_sink.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string_view>

#include "bn/calltree/profile_writer.h"

namespace bn::agent {
namespace {

// The agent compresses its chunks at zstd's default level, not the analyzer's 9: the flusher's CPU
// is taken from the program. On javac compiling its own sources (30M calling contexts, 155 MB of
// raw chunks) level 9 took 2.2 s of CPU and level 3 0.4 s, for a file of 14.2 MB instead of 10.1
// (docs/performance.md, "Tenth round"). The profile is the same at any level.
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

}  // namespace

ProfileSink::~ProfileSink() {
  if (file_ != nullptr) std::fclose(file_);
}

Status ProfileSink::open(const std::string& path, const calltree::Metadata& metadata,
                         std::span<const calltree::MetricSpec> extra) {
  path_ = path;
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) return Status::error("cannot create profile '" + path + "': " + std::strerror(errno));
  return guarded(path_, [&] {
    writer_ =
        std::make_unique<calltree::ProfileStreamWriter>(file_, calltree::kMaxChunkRawSize, kAgentCompressionLevel);
    writer_->write_metadata(metadata);
    if (!extra.empty()) writer_->declare_extra_metrics(extra);
    std::fflush(file_);
  });
}

Status ProfileSink::flush(FrameTree& tree, const ChunkEncoder& ancillary) {
  if (writer_ == nullptr) return Status();
  return guarded(path_, [&] {
    FrameTree::Pending& p = pending_;
    tree.take_pending(p);
    std::vector<std::string_view> strings(p.strings.begin(), p.strings.end());
    if (!strings.empty()) writer_->append_strings(strings);
    if (!p.parents.empty()) writer_->append_nodes(p.parents, p.methods);
    if (!p.costs.empty()) writer_->add_costs(p.costs);
    for (std::size_t m = 0; m < p.more_costs.size(); ++m)
      if (!p.more_costs[m].empty()) writer_->add_metric_costs(static_cast<std::uint32_t>(m + 1), p.more_costs[m]);
    for (const AncillaryChunk& chunk : ancillary(p.parents)) writer_->write_chunk(chunk.tag, chunk.bytes);
    if (std::fflush(file_) != 0)
      throw std::runtime_error("cannot write profile '" + path_ + "': " + std::strerror(errno));
  });
}

Status ProfileSink::finish(const calltree::Metadata& metadata) {
  if (writer_ == nullptr) return Status();
  Status status = guarded(path_, [&] {
    writer_->write_metadata(metadata);
    writer_->finish();
  });
  writer_.reset();
  if (std::fclose(file_) != 0 && status.ok())
    status = Status::error("cannot write profile '" + path_ + "': " + std::strerror(errno));
  file_ = nullptr;
  return status;
}

Status write_snapshot(const std::string& path, const FrameTree& tree, const calltree::Metadata& metadata) {
  return guarded(path, [&] { calltree::write_profile(tree.build(metadata), path); });
}

}  // namespace bn::agent
