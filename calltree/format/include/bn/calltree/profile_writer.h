#pragma once
// Writing the native profile format (docs/profile-format.md).
//
// The JVMTI agent streams: it appends new strings and nodes, then cost increments, at every
// flush, so a JVM killed with SIGKILL still leaves a file whose complete chunks decode
// (LoadOptions::accept_unfinished). Whole trees are written atomically with write_profile.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/metadata.h"
#include "bn/calltree/metric.h"
#include "bn/calltree/profile_format.h"
#include "bn/calltree/types.h"

namespace bn::calltree {

class ChunkCompressor;  // chunk_framing.h, internal
class ByteSink;         // byte_codec.h, internal

// Streams a profile chunk by chunk. Every method throws bn::Error if the file cannot be written
// or if it is asked to write a reference the reader would reject (a node whose parent or method
// was not written yet, a cost for an unknown node); nothing is written in that case.
class ProfileStreamWriter {
 public:
  // Does not own `out`; the caller flushes and closes it. Writes the file header immediately.
  // Tables are split into chunks of at most `max_chunk_raw` decompressed bytes (tests lower it);
  // chunks are compressed at zstd level `compression_level` (any level makes the same profile).
  explicit ProfileStreamWriter(std::FILE* out, std::uint32_t max_chunk_raw = kMaxChunkRawSize,
                               int compression_level = kDefaultCompressionLevel);
  ~ProfileStreamWriter();
  ProfileStreamWriter(const ProfileStreamWriter&) = delete;
  ProfileStreamWriter& operator=(const ProfileStreamWriter&) = delete;

  // META chunk with every field of `m`. A later META chunk overrides earlier ones key by key.
  void write_metadata(const Metadata& m);
  // STRS chunk(s); ids continue from strings_written().
  void append_strings(std::span<const std::string_view> strings);
  // NODE chunk(s): the new nodes get ids nodes_written() + 1, + 2, ...;
  // parents[i] must be an earlier node (0 = the implicit root) and methods[i] a written string.
  void append_nodes(std::span<const NodeId> parents, std::span<const MethodId> methods);
  // COST chunk(s): each pair adds its cost to an already written node (any order, repeats allowed).
  void add_costs(std::span<const std::pair<NodeId, Cost>> increments);
  // Metrics 1..n of this profile (metric 0 is the one Metadata::metric/unit describe and add_costs writes).
  // At most once, before any cost chunk. Throws bn::Error otherwise.
  // Also refused: more than kMaxExtraMetrics, an empty or repeated name, text that is not UTF-8.
  // MTRC chunk (none for an empty list).
  void declare_extra_metrics(std::span<const MetricSpec> extra);
  // Like add_costs, for metric `metric` (0 = add_costs). Throws bn::Error for an undeclared metric.
  // MCST chunk(s).
  void add_metric_costs(std::uint32_t metric, std::span<const std::pair<NodeId, Cost>> increments);
  // Any other chunk, e.g. ancillary per-sample records; `raw` is compressed like the others.
  // The tags of the chunks above are refused here.
  void write_chunk(ChunkTag tag, std::span<const std::byte> raw);
  // END chunk with the node and string counts and the total cost, after an MTOT chunk with the
  // extra metrics' totals if there are any; then fflush. No chunk may follow.
  void finish();

  std::uint32_t strings_written() const { return strings_; }
  std::uint32_t nodes_written() const { return nodes_; }  // excluding the root

 private:
  void emit(ChunkTag tag, std::span<const std::byte> raw);
  // The encoding buffer, emptied for the next chunk: one for all chunks, so that a large chunk's
  // raw bytes are not fresh pages at every flush (bench/LOG.md, "Tenth round").
  ByteSink& empty_sink();
  // `total` plus the increments; throws if a node is unwritten or the sum leaves 64 bits.
  Cost checked_total(std::span<const std::pair<NodeId, Cost>> increments, Cost total) const;

  std::FILE* out_;
  std::unique_ptr<ChunkCompressor> compressor_;  // one for all chunks (chunk_framing.h)
  std::unique_ptr<ByteSink> sink_;
  std::uint32_t max_chunk_raw_;
  std::uint32_t strings_ = 0;
  std::uint32_t nodes_ = 0;
  Cost total_cost_ = 0;
  std::vector<Cost> extra_totals_;  // one per declared extra metric
  bool metrics_declared_ = false;
  bool costs_written_ = false;
  bool finished_ = false;
};

// An ancillary chunk (e.g. per-sample records, sample_records.h), decompressed.
using AncillaryChunk = std::pair<ChunkTag, std::vector<std::byte>>;

// Writes `tree` (nodes in preorder, only nonzero costs of every metric, so node ids in the file
// are the tree's ids) and then `ancillary` to `path` atomically: a temporary file in the same directory, fsync,
// rename. On failure `path` is untouched and no temporary file is left; throws bn::Error naming
// the path.
void write_profile(const CallTree& tree, const std::filesystem::path& path,
                   std::span<const AncillaryChunk> ancillary = {});

}  // namespace bn::calltree
