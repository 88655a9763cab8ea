#pragma once
// The per-sample records (sample_data.h) in the native profile: two ancillary chunks, so a plain
// call tree still loads without them, "thrd" (thread table entries: new threads, or updates; a
// later entry for the same index wins) and "smpl" (the parents of the nodes appended since the
// previous "smpl" chunk, then ticks; each tick has a timestamp and one record per live thread).
// Their rows in kKnownChunks (profile_format.h) name them kTagThreads and kTagSamples.
//
// Records name stack nodes by their id in the file (append order). The loaded CallTree is
// renumbered in preorder (siblings in file order), so decode_sample_data maps file ids to tree
// ids with the parents carried here. Shared by the agent (encoder) and the analyzer (decoder);
// every integer is an unsigned LEB128 varint (zigzag for signed ones). docs/recorder.md has
// the byte layout.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/profile_format.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/sample_data.h"
#include "bn/calltree/types.h"

namespace bn::calltree {

// Encoders. encode_samples writes `new_node_parents` (file ids of the parents of the nodes
// appended since the previous call, in append order) and the ticks; tick.first_record indexes
// `records`.
std::vector<std::byte> encode_threads(std::span<const ThreadEntry> entries);
std::vector<std::byte> encode_samples(std::span<const NodeId> new_node_parents, std::span<const SampleTick> ticks,
                                      std::span<const SampleRecord> records);

// The "thrd" and "smpl" chunks of `samples` (decoded, with tree ids) for a file that writes
// `tree`'s nodes in preorder, as write_profile does: file ids are then tree ids, and the first
// "smpl" chunk carries the parents of every node. Ticks are spread over chunks of at most
// `records_per_chunk` records each (a tick is never split), so no chunk nears the format's limit.
inline constexpr std::size_t kRecordsPerChunk = std::size_t{1} << 22;
std::vector<AncillaryChunk> encode_sample_data(const CallTree& tree, const SampleData& samples,
                                               std::size_t records_per_chunk = kRecordsPerChunk);

// Decodes every "thrd" and "smpl" chunk of `profile` (in file order) with node ids mapped to
// profile.tree's preorder ids. Throws bn::Error naming `source`, the chunk and the byte offset
// on malformed data: truncated varints, a thread index that skips ahead, a record naming an
// unknown thread or node, time going backwards, parents that disagree with the tree.
SampleData decode_sample_data(const LoadedProfile& profile, const std::string& source);

}  // namespace bn::calltree
