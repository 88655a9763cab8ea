#pragma once
// Payloads of the critical chunks of the native profile format (docs/profile-format.md,
// "Critical chunks"), encoder beside decoder so the two cannot drift. Internal to bn_calltree.
//
// Encoders of tables take a byte limit and encode the longest prefix of their input that fits,
// returning its length, so writers split big tables into several chunks.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/metric.h"
#include "byte_codec.h"
#include "growing_payload.h"

namespace bn::calltree {

// META: varint pair count, then (key, value) strings. Known keys fill Metadata's fields (integers
// as decimal text); unknown keys go to Metadata::extra. Later keys override earlier ones.
void encode_meta(const Metadata& m, ByteSink& out);
void decode_meta(ByteSource& in, Metadata& m);

// STRS: varint count, then strings. Ids continue from the strings already in `names`.
std::size_t encode_strings(std::span<const std::string_view> items, std::size_t limit, ByteSink& out);
void decode_strings(ByteSource& in, StringTable& names);

// A thread costs ~0.1 ms to start; decoding a node ~8 ns.
inline constexpr std::size_t kTwoThreadNodes = std::size_t{1} << 16;

// NODE: varint count, then the column of (own id - parent id), then the column of method ids.
// `first_id` is the id of items[0] (ids continue across chunks; the root is node 0).
std::size_t encode_nodes(std::span<const NodeId> parents, std::span<const MethodId> methods, NodeId first_id,
                         std::size_t limit, ByteSink& out);
// Appends to `table` (which holds the root and earlier nodes), checking every reference and that
// the nodes stay within `node_limit`. A chunk of `two_threads_from` nodes or more has its two
// columns decoded on two threads (the same table, the same first error; `in` is spent either way).
// With `growing`, `in`'s payload is still being decompressed: its bytes are read only once they
// are out, and GrowingPayload::Failed is thrown if they never come; whatever this throws then
// holds only if the decompression succeeds (the reader waits for it: ChunkPrefetch::grown).
void decode_nodes(ByteSource& in, NodeTable& table, std::size_t string_count, std::uint64_t node_limit,
                  std::size_t two_threads_from = kTwoThreadNodes, const GrowingPayload* growing = nullptr);

// COST: varint count, then (zigzag node-id delta from the previous entry, zigzag cost) pairs;
// each cost is added to its node's entry in `column` (one entry per node read so far).
std::size_t encode_costs(std::span<const std::pair<NodeId, Cost>> items, std::size_t limit, ByteSink& out);
// What the entries decode_costs added came to, kept as they are decoded so that the END chunk's
// check of the column's total need not read the column again (8 bytes per node).
struct CostTally {
  __int128 sum = 0;       // exact: fewer than 2^63 entries (2 bytes each at least), each below 2^63
  bool negative = false;  // some entry's cost is below zero
};
// `early`, if any, is walking the column's nodes as their costs become final: told how far they
// are while the entries come in node order, abandoned at one that does not.
void decode_costs(ByteSource& in, std::span<Cost> column, CostTally& tally, EarlyWalk* early = nullptr);

// MTRC: varint count, then (string name, string unit) per extra metric: metrics 1, 2, ...
void encode_metrics(std::span<const MetricSpec> extra, ByteSink& out);
std::vector<MetricSpec> decode_metrics(ByteSource& in);

// MCST: varint metric (1..), then a COST payload for that metric. decode_metric_index reads the
// metric and checks it is one of the `declared` extra metrics; decode_costs reads the rest.
std::size_t encode_metric_costs(std::uint32_t metric, std::span<const std::pair<NodeId, Cost>> items, std::size_t limit,
                                ByteSink& out);
std::uint32_t decode_metric_index(ByteSource& in, std::size_t declared);

// MTOT: varint count, then the zigzag total cost of each extra metric, 1 first.
void encode_metric_totals(std::span<const Cost> totals, ByteSink& out);
std::vector<Cost> decode_metric_totals(ByteSource& in);

// END: node count (without the root), string count, zigzag total cost.
struct EndCounts {
  std::uint64_t nodes = 0;
  std::uint64_t strings = 0;
  Cost total_cost = 0;
};
void encode_end(const EndCounts& counts, ByteSink& out);
EndCounts decode_end(ByteSource& in);

}  // namespace bn::calltree
