#pragma once
// Where a recording goes: the profile file, streamed, written by every engine of the recording.
// The engines share one FrameTree, each adding the metrics it declared (EngineKind::metrics): a
// node is a calling context whatever engine reached it, and carries each engine's costs side by
// side, as the file's several metrics do (docs/profile-format.md, "Several metrics"). Each flush,
// by whichever engine, appends the tree's new names, nodes and cost increments of every metric
// (what `bottlenecks repl` reads), then that engine's own ancillary chunks (the sampler's thread
// table and per-sample records); a JVM killed by SIGKILL leaves every flushed chunk decodable.
// The file gets its END chunk once every engine has finished its part.
//
// An engine holds a SinkPart: its index, which names its metrics and its metadata here. The
// tree is locked while an engine adds to it (SinkPart::lock_tree) and while a flush writes it;
// with one engine the lock is never contended. Errors come back as values: the JVM must never
// see an exception from the agent.

#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "bn/agent/status.h"
#include "bn/calltree/metadata.h"
#include "bn/calltree/metric.h"
#include "bn/calltree/profile_format.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/types.h"
#include "core/frame_tree.h"

namespace bn::agent {

// A chunk besides the call tree's, with a tag of the engine's (sample_records.h has the
// sampler's); readers that do not know the tag skip it.
struct AncillaryChunk {
  calltree::ChunkTag tag;
  std::vector<std::byte> bytes;
};

// An engine's ancillary chunks of one flush, in the order to write them. `new_parents`: the
// parents (file node ids) of the nodes appended since this engine's previous flush, by any
// engine, in append order, which a chunk that names nodes by file id carries so the reader can
// map them to the loaded tree's ids.
using ChunkEncoder = std::function<std::vector<AncillaryChunk>(std::span<const calltree::NodeId> new_parents)>;

class ProfileSink {
 public:
  // One engine's part of the profile: its mode and the metrics it adds, the first the one it
  // counts in. Metric 0 of the file is the first part's first; the others are the file's extra
  // metrics, in part order.
  struct Part {
    std::string mode;
    std::vector<calltree::MetricSpec> metrics;
  };
  // Nothing is written before the first open(). `keep_totals`: some part snapshots the tree.
  ProfileSink(std::string path, std::vector<Part> parts, bool keep_totals);
  ProfileSink(const ProfileSink&) = delete;
  ProfileSink& operator=(const ProfileSink&) = delete;
  ~ProfileSink();

  std::size_t parts() const { return parts_.size(); }
  // The tree index of part `part`'s first metric (its k-th is this + k).
  std::size_t first_metric(std::size_t part) const { return parts_[part].first_metric; }
  // Every metric of the file, metric 0 first.
  const std::vector<calltree::MetricSpec>& metrics() const { return metrics_; }

  // Part `part` starts: the first part to start creates (truncates) the file and writes the
  // header, the metadata and the extra metrics of every part; a later one writes the metadata
  // again, with its own in it (a later META chunk adds to earlier ones).
  Status open(std::size_t part, const calltree::Metadata& metadata);
  // Appends what the tree gained since the last flush, then the chunks `ancillary` encodes.
  // Nothing when the file is not open. Never with the tree locked by the caller.
  Status flush(std::size_t part, const ChunkEncoder& ancillary);
  // Part `part` is complete with `metadata`; once every part is complete or withdrawn, the final
  // metadata and the END chunk are written and the tree's memory given back.
  Status finish(std::size_t part, const calltree::Metadata& metadata);
  // Part `part` will write nothing (its engine did not start): the file completes without it.
  // If no part finished, the file stays without END, as a recording that never ran leaves it.
  Status withdraw(std::size_t part);
  // The recording so far, metric 0 only, written atomically to `path` as a complete profile to
  // examine while the program runs, with part `part`'s metadata `metadata` (ancillary chunks
  // stay in the streamed file only: keeping the sampler's per-sample records all in memory
  // would grow without bound on a server). Needs keep_totals.
  Status snapshot(std::size_t part, const std::string& path, const calltree::Metadata& metadata);

  // The shared tree, for an engine adding to it under the lock: node ids are the file's.
  [[nodiscard]] std::unique_lock<std::mutex> lock_tree() { return std::unique_lock<std::mutex>(mutex_); }
  FrameTree& tree() { return tree_; }

 private:
  struct PartState {
    std::string mode;
    std::size_t first_metric = 0;
    calltree::Metadata metadata;  // the latest open() or finish() gave
    bool finished = false;
    bool withdrawn = false;
    std::size_t nodes_seen = 0;  // tree nodes when its last flush encoded its chunks
  };
  // The file's metadata: with one part, that part's; with several, their merge (merge_parts).
  calltree::Metadata merged() const;
  Status complete_if_done();

  std::mutex mutex_;  // guards everything below, and the tree
  std::string path_;
  std::vector<PartState> parts_;
  std::vector<calltree::MetricSpec> metrics_;
  bool keep_totals_;
  FrameTree tree_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<calltree::ProfileStreamWriter> writer_;
  FrameTree::Pending pending_;  // each flush's, its memory kept for the next (FrameTree::take_pending)
};

// An engine's handle on its part of the recording's sink.
class SinkPart {
 public:
  SinkPart(ProfileSink& sink, std::size_t part) : sink_(&sink), part_(part) {}

  // The index in the tree of the engine's k-th metric (its EngineKind row's order).
  std::size_t metric(std::size_t k) const { return sink_->first_metric(part_) + k; }
  // The shared tree: touched only while holding lock_tree(), which no sink call below may be
  // made under.
  [[nodiscard]] std::unique_lock<std::mutex> lock_tree() const { return sink_->lock_tree(); }
  FrameTree& tree() const { return sink_->tree(); }

  Status open(const calltree::Metadata& metadata) const { return sink_->open(part_, metadata); }
  Status flush(const ChunkEncoder& ancillary) const { return sink_->flush(part_, ancillary); }
  Status finish(const calltree::Metadata& metadata) const { return sink_->finish(part_, metadata); }
  Status snapshot(const std::string& path, const calltree::Metadata& metadata) const {
    return sink_->snapshot(part_, path, metadata);
  }

 private:
  ProfileSink* sink_;
  std::size_t part_;
};

// Several parts' metadata as one (the metadata of a recording of several engines): the modes
// joined by '+', metric 0 named by the first part's first metric, the recording's facts (JVM,
// command line, start) from the first part that has them, the longest duration, and every
// part's extra keys prefixed by its mode ("sample.ticks"), so that none hides another's.
calltree::Metadata merge_parts(std::span<const calltree::Metadata> parts, const calltree::MetricSpec& metric0);

// Writes `tree` (metric 0) to `path` atomically, as a complete profile.
Status write_snapshot(const std::string& path, const FrameTree& tree, const calltree::Metadata& metadata);

}  // namespace bn::agent
