#pragma once
// Where an engine's recording goes: the profile file, streamed. Each flush appends the new
// names, nodes and cost increments of the engine's FrameTree as the call tree (what
// `bottlenecks repl` reads), then the engine's own ancillary chunks (the sampler's thread
// table and per-sample records); a JVM killed by SIGKILL leaves every flushed chunk decodable.
// finish() writes the final metadata and the END chunk.
//
// Called only from the engine's own thread. Errors come back as values: the JVM must never see
// an exception from the agent.

#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/metadata.h"
#include "bn/calltree/metric.h"
#include "bn/calltree/profile_format.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/types.h"
#include "core/frame_tree.h"
#include "core/status.h"

namespace bn::agent {

// A chunk besides the call tree's, with a tag of the engine's (sample_records.h has the
// sampler's); readers that do not know the tag skip it.
struct AncillaryChunk {
  calltree::ChunkTag tag;
  std::vector<std::byte> bytes;
};

// An engine's ancillary chunks of one flush, in the order to write them. `new_parents`: the
// parents (file node ids) of the nodes this flush appends, in append order, which a chunk that
// names nodes by file id carries so the reader can map them to the loaded tree's ids.
using ChunkEncoder = std::function<std::vector<AncillaryChunk>(std::span<const calltree::NodeId> new_parents)>;

class ProfileSink {
 public:
  ~ProfileSink();

  // Creates (truncates) `path` and writes the header and the initial metadata. `extra`: the
  // metrics 1, 2, ... of the engine's FrameTree (metric 0 is the one the metadata names), e.g.
  // the call-tree mode's calls.
  Status open(const std::string& path, const calltree::Metadata& metadata,
              std::span<const calltree::MetricSpec> extra = {});
  // Appends what `tree` gained since the last flush, then the chunks `ancillary` encodes (not
  // called when the sink is not open).
  Status flush(FrameTree& tree, const ChunkEncoder& ancillary);
  Status finish(const calltree::Metadata& metadata);
  bool is_open() const { return writer_ != nullptr; }

 private:
  std::FILE* file_ = nullptr;
  std::unique_ptr<calltree::ProfileStreamWriter> writer_;
  std::string path_;
  FrameTree::Pending pending_;  // each flush's, its memory kept for the next (FrameTree::take_pending)
};

// Writes the call tree recorded so far to `path` atomically, as a complete profile to examine
// while the program runs (ancillary chunks stay in the streamed file only: keeping the
// sampler's per-sample records all in memory would grow without bound on a server).
Status write_snapshot(const std::string& path, const FrameTree& tree, const calltree::Metadata& metadata);

}  // namespace bn::agent
