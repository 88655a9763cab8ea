#pragma once
// Where samples go: the profile file, streamed. Each flush appends the new names, nodes and
// sample counts as the call tree (what `bottlenecks repl` reads) and the thread table and
// per-sample records as ancillary chunks; a JVM killed by SIGKILL leaves every flushed chunk
// decodable. finish() writes the final metadata and the END chunk.
//
// Called only from the sampler thread. Errors come back as values: the JVM must never see an
// exception from the agent.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bn/calltree/metadata.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/sample_records.h"
#include "frame_tree.h"
#include "status.h"

namespace bn::agent {

class ProfileSink {
 public:
  ~ProfileSink();

  // Creates (truncates) `path` and writes the header and the initial metadata.
  Status open(const std::string& path, const calltree::Metadata& metadata);
  Status flush(FrameTree& tree, std::vector<calltree::ThreadEntry> threads, std::vector<calltree::SampleTick>& ticks,
               std::vector<calltree::SampleRecord>& records);
  Status finish(const calltree::Metadata& metadata);
  bool is_open() const { return writer_ != nullptr; }

 private:
  std::FILE* file_ = nullptr;
  std::unique_ptr<calltree::ProfileStreamWriter> writer_;
  std::string path_;
};

// Writes the call tree recorded so far to `path` atomically, as a complete profile to examine
// while the program runs (per-sample records stay in the streamed file only: keeping them all
// in memory would grow without bound on a server).
Status write_snapshot(const std::string& path, const FrameTree& tree, const calltree::Metadata& metadata);

}  // namespace bn::agent
