#include "profile_sink.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string_view>

#include "bn/calltree/profile_writer.h"

namespace bn::agent {
namespace {

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
  for (Stream& s : streams_)
    if (s.file != nullptr) std::fclose(s.file);
}

calltree::Metadata ProfileSink::metadata_of(std::size_t m, const calltree::Metadata& metadata) const {
  if (m == 0) return metadata;
  calltree::Metadata out = metadata;
  out.metric = extra_[m - 1].name;
  out.unit = extra_[m - 1].unit;
  out.set_extra("metric_of", streams_[0].path);
  return out;
}

Status ProfileSink::open(const std::string& path, const calltree::Metadata& metadata, std::vector<ExtraMetric> extra) {
  extra_ = std::move(extra);
  streams_.resize(1 + extra_.size());
  for (std::size_t m = 0; m < streams_.size(); ++m) streams_[m].path = m == 0 ? path : path + "." + extra_[m - 1].name;
  for (std::size_t m = 0; m < streams_.size(); ++m) {
    Stream& s = streams_[m];
    s.file = std::fopen(s.path.c_str(), "wb");
    if (s.file == nullptr) return Status::error("cannot create profile '" + s.path + "': " + std::strerror(errno));
    if (Status st = guarded(s.path,
                            [&] {
                              s.writer = std::make_unique<calltree::ProfileStreamWriter>(s.file);
                              s.writer->write_metadata(metadata_of(m, metadata));
                              std::fflush(s.file);
                            });
        !st.ok())
      return st;
  }
  return Status();
}

Status ProfileSink::flush(FrameTree& tree, const ChunkEncoder& ancillary) {
  if (!is_open()) return Status();
  FrameTree::Pending p = tree.take_pending();
  std::vector<std::string_view> strings(p.strings.begin(), p.strings.end());
  for (std::size_t m = 0; m < streams_.size(); ++m) {
    Stream& s = streams_[m];
    if (Status st =
            guarded(s.path,
                    [&] {
                      if (!strings.empty()) s.writer->append_strings(strings);
                      if (!p.parents.empty()) s.writer->append_nodes(p.parents, p.methods);
                      const FrameTree::Increments& costs = m == 0 ? p.costs : p.more_costs[m - 1];
                      if (!costs.empty()) s.writer->add_costs(costs);
                      if (m == 0)
                        for (const AncillaryChunk& chunk : ancillary(p.parents))
                          s.writer->write_chunk(chunk.tag, chunk.bytes);
                      if (std::fflush(s.file) != 0)
                        throw std::runtime_error("cannot write profile '" + s.path + "': " + std::strerror(errno));
                    });
        !st.ok())
      return st;
  }
  return Status();
}

Status ProfileSink::finish(const calltree::Metadata& metadata) {
  Status status;
  for (std::size_t m = 0; m < streams_.size(); ++m) {
    Stream& s = streams_[m];
    if (s.writer == nullptr) continue;
    Status st = guarded(s.path, [&] {
      s.writer->write_metadata(metadata_of(m, metadata));
      s.writer->finish();
    });
    s.writer.reset();
    if (std::fclose(s.file) != 0 && st.ok())
      st = Status::error("cannot write profile '" + s.path + "': " + std::strerror(errno));
    s.file = nullptr;
    if (status.ok() && !st.ok()) status = std::move(st);
  }
  return status;
}

Status write_snapshot(const std::string& path, const FrameTree& tree, const calltree::Metadata& metadata) {
  return guarded(path, [&] { calltree::write_profile(tree.build(metadata), path); });
}

}  // namespace bn::agent
