#include "bn/calltree/profile_reader.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>

#include "bn/base/error.h"
#include "byte_codec.h"
#include "chunk_framing.h"
#include "chunk_prefetch.h"
#include "fresh_buffer.h"
#include "profile_chunks.h"

namespace bn::calltree {
namespace {

std::string hex32(std::uint32_t v) {
  char buf[11];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

void check_header(std::span<const std::byte> bytes, const std::string& prefix) {
  const std::size_t magic_len = std::min(bytes.size(), kProfileMagic.size());
  if (const auto head = bytes.first(magic_len); !std::equal(head.begin(), head.end(), kProfileMagic.begin()))
    throw Error(prefix + ": not a bottlenecks profile (wrong magic bytes at byte 0)");
  if (bytes.size() < kProfileHeaderSize)
    throw Error(prefix + ": file is cut off inside its " + std::to_string(kProfileHeaderSize) + "-byte header (" +
                std::to_string(bytes.size()) + " bytes)");
  const std::uint32_t version = get_u32le(bytes.subspan(8));
  if (version != kProfileVersion)
    throw Error(prefix + ": unsupported profile version " + std::to_string(version) + " (this build reads version " +
                std::to_string(kProfileVersion) + ")");
  const std::uint32_t flags = get_u32le(bytes.subspan(12));
  if (flags != 0)
    throw Error(prefix + ": unsupported header flags " + hex32(flags) + " at byte 12 (version 1 defines none)");
}

// Everything the chunks of one file add up to.
struct ReadState {
  // decode_nodes checks every parent and method id as it reads them.
  NodeTable table{{kNoNode}, {kNoMethod}, {0}, /*references_checked=*/true};
  // The closing walk begun as the first COST chunk is decoded, declared after the table it reads so
  // that it stops first. Dropped when a NODE or another COST chunk follows.
  std::unique_ptr<EarlyWalk> early_walk;
  bool costs_read = false;
  CostTally costs;  // of the COST chunks, for END's total
  StringTable names;
  Metadata metadata;
  std::vector<std::pair<ChunkTag, std::vector<std::byte>>> extra_chunks;
  // Extra metrics (MTRC), their cost columns grown to the nodes read when costs come (MCST).
  bool metrics_declared = false;
  bool metric_totals_read = false;  // MTOT: no metric costs may follow
  std::vector<MetricColumn> extra_metrics;
  std::vector<CostTally> metric_costs;  // of each extra metric's MCST chunks, for MTOT's totals
};

// The sum of a cost column, nullopt if some partial sum in node order passes 64 bits. With no cost
// below zero (the tally of the entries added into the column says), every node's cost is a sum of
// costs >= 0, so the sums in node order only grow: one passes 64 bits exactly when the whole does,
// and the whole is the entries' sum, known without reading the column again.
std::optional<Cost> column_total(const CostTally& entries, std::span<const Cost> column) {
  if (!entries.negative) {
    if (entries.sum > std::numeric_limits<Cost>::max()) return std::nullopt;
    return static_cast<Cost>(entries.sum);
  }
  Cost total = 0;
  for (Cost c : column)
    if (__builtin_add_overflow(total, c, &total)) return std::nullopt;
  return total;
}

void verify_end(const EndCounts& end, const ReadState& s, const std::string& context) {
  const std::uint64_t nodes = s.table.parent.size() - 1;
  if (end.nodes != nodes)
    throw Error(context + ": says " + std::to_string(end.nodes) + " nodes, but the file has " + std::to_string(nodes));
  if (end.strings != s.names.size())
    throw Error(context + ": says " + std::to_string(end.strings) + " strings, but the file has " +
                std::to_string(s.names.size()));
  const std::optional<Cost> sum = column_total(s.costs, s.table.cost);
  if (!sum) throw Error(context + ": the node costs add up past 64 bits");
  const Cost total = *sum;
  if (end.total_cost != total)
    throw Error(context + ": says the total cost is " + std::to_string(end.total_cost) + ", but the nodes add up to " +
                std::to_string(total));
}

// What a file of `bytes` bytes may hold. Files this tool writes decompress to under 5 times their
// size and take at least half a byte per node (docs/profile-format.md, "Limits"); these bounds are
// far above that, and keep a small hostile file (a 101 KB file once asked for 3.7 GB, a 1.4 KB one
// for a 20M-node chain) from costing more than its size justifies.
struct InputLimits {
  std::uint64_t raw_bytes;  // decompressed bytes of all chunks together
  std::uint64_t nodes;

  // Cost entries of all extra metrics' columns together (8 bytes each, within raw_bytes): a
  // genuine file takes at least half a byte per node, so this allows 16 metrics or more.
  std::uint64_t metric_cells() const { return raw_bytes / sizeof(Cost); }

  explicit InputLimits(std::size_t bytes)
      : raw_bytes(std::max<std::uint64_t>(std::uint64_t{64} << 20, std::uint64_t{256} * bytes)),
        nodes(std::uint64_t{1} << 20) {
    nodes += std::uint64_t{16} * bytes;
  }
};

// Sizes every extra metric's column to the nodes read so far, within the limits.
void grow_metric_columns(ReadState& s, const InputLimits& limits, const std::string& context) {
  const std::uint64_t nodes = s.table.parent.size();
  if (s.extra_metrics.size() * nodes > limits.metric_cells())
    throw Error(context + ": " + std::to_string(s.extra_metrics.size()) + " extra metrics of " + std::to_string(nodes) +
                " nodes would take more than " + std::to_string(limits.raw_bytes) +
                " bytes, 256 times the file's size (at least 64 MiB): not a profile this tool wrote");
  for (MetricColumn& column : s.extra_metrics) column.cost.resize(nodes, 0);
}

void verify_metric_totals(const std::vector<Cost>& totals, const ReadState& s, const std::string& context) {
  if (!s.metrics_declared) throw Error(context + ": metric totals, but no MTRC chunk declared extra metrics");
  if (s.metric_totals_read) throw Error(context + ": a second MTOT chunk");
  if (totals.size() != s.extra_metrics.size())
    throw Error(context + ": totals of " + std::to_string(totals.size()) + " metrics, but the MTRC chunk declares " +
                std::to_string(s.extra_metrics.size()));
  for (std::size_t k = 0; k < totals.size(); ++k) {
    const std::optional<Cost> sum = column_total(s.metric_costs[k], s.extra_metrics[k].cost);
    if (!sum) throw Error(context + ": the costs of metric " + std::to_string(k + 1) + " add up past 64 bits");
    const Cost total = *sum;
    if (totals[k] != total)
      throw Error(context + ": says the total of metric " + std::to_string(k + 1) + " ('" +
                  s.extra_metrics[k].spec.name + "') is " + std::to_string(totals[k]) + ", but its costs add up to " +
                  std::to_string(total));
  }
}

// How the chunk sequence ended.
struct ChunkWalk {
  std::optional<EndCounts> end;  // the END chunk's counts, if there was one
  std::string cut_off;           // why the sequence stopped early, if it did
  std::size_t complete_chunks = 0;
  std::size_t end_offset = 0;  // the byte after the last complete chunk
};

std::string chunk_context(const std::string& prefix, ChunkTag tag, std::size_t at) {
  return prefix + ": chunk " + describe_tag(tag) + " at byte " + std::to_string(at);
}

// A NODE chunk decoded while it is decompressed (ChunkPrefetch): what it comes to, or the error,
// of decoding it once it is out whole. A decompression that fails voids whatever its decoder
// found (bytes that never came, or came corrupt), and the chunk is decompressed again whole, on
// this thread, for the error it has always had.
void decode_growing_nodes(ChunkPrefetch& chunks, const ChunkPrefetch::Taken& taken, std::span<const std::byte> payload,
                          std::uint32_t raw_size, const std::string& context, ReadState& s, std::uint64_t node_limit) {
  const std::size_t nodes_before = s.table.parent.size();
  try {
    ByteSource in(taken.bytes, context);
    decode_nodes(in, s.table, s.names.size(), node_limit, kTwoThreadNodes, taken.growing);
    if (chunks.grown()) return;
  } catch (const GrowingPayload::Failed&) {
  } catch (const Error&) {
    if (chunks.grown()) throw;
  }
  s.table.parent.resize(nodes_before);
  s.table.method.resize(nodes_before);
  s.table.cost.resize(nodes_before);
  ByteSource in(chunks.whole_again(payload, raw_size, context), context);
  decode_nodes(in, s.table, s.names.size(), node_limit);
}

// Decodes every chunk of `bytes` after the header into `s`: what the file adds up to, where and
// why it stops if it has no END chunk. The decompression buffers live only as long as this.
ChunkWalk read_chunks(std::span<const std::byte> bytes, const std::string& prefix, ReadState& s) {
  const InputLimits limits(bytes.size());
  ChunkPrefetch chunks;
  std::uint64_t raw_total = 0;
  ChunkWalk walk;
  std::optional<EndCounts>& end = walk.end;
  std::string& cut_off = walk.cut_off;
  std::size_t pos = kProfileHeaderSize;
  while (pos < bytes.size()) {
    const std::size_t remaining = bytes.size() - pos;
    if (end)
      throw Error(prefix + ": " + std::to_string(remaining) + " bytes of trailing data at byte " + std::to_string(pos) +
                  " after the END chunk");
    if (remaining < kChunkHeaderSize) {
      cut_off = "the chunk header at byte " + std::to_string(pos) + " is cut off after " + std::to_string(remaining) +
                " of " + std::to_string(kChunkHeaderSize) + " bytes";
      break;
    }
    const ChunkHeader h =
        decode_chunk_header(bytes.subspan(pos, kChunkHeaderSize), prefix + ": chunk at byte " + std::to_string(pos));
    const std::string context = chunk_context(prefix, h.tag, pos);
    if (h.payload_size > remaining - kChunkHeaderSize) {
      cut_off = "chunk " + describe_tag(h.tag) + " at byte " + std::to_string(pos) + " declares a payload of " +
                std::to_string(h.payload_size) + " bytes, but only " + std::to_string(remaining - kChunkHeaderSize) +
                " bytes remain";
      break;
    }
    const KnownChunk* known = find_known_chunk(h.tag);
    if (!known && h.tag.critical())
      throw Error(context + ": unknown critical chunk (written by a newer version of bottlenecks?)");
    raw_total += h.raw_size;
    if (raw_total > limits.raw_bytes)
      throw Error(context + ": the chunks decompress to more than " + std::to_string(limits.raw_bytes) +
                  " bytes, 256 times the file's size (at least 64 MiB): not a profile this tool wrote");
    const std::span<const std::byte> payload = bytes.subspan(pos + kChunkHeaderSize, h.payload_size);
    const ChunkPrefetch::Taken taken = chunks.take(payload, h.raw_size, context);
    // The next chunk is decompressed while this one is decoded if its header keeps it within the
    // file and the limits (one the checks above then refuse costs a decompression bounded as any).
    // Its errors wait for take, so they come after this chunk's, as in one pass.
    if (const std::size_t next = pos + kChunkHeaderSize + h.payload_size;
        h.tag != kTagEnd && bytes.size() - next >= kChunkHeaderSize) {
      const ChunkHeader ahead = chunk_header_fields(bytes.subspan(next, kChunkHeaderSize));
      if (ahead.payload_size <= bytes.size() - next - kChunkHeaderSize && ahead.raw_size <= kMaxChunkRawSize &&
          raw_total + ahead.raw_size <= limits.raw_bytes)
        chunks.start(bytes.subspan(next + kChunkHeaderSize, ahead.payload_size), ahead.raw_size,
                     chunk_context(prefix, ahead.tag, next), ahead.tag == kTagNodes);
    }
    const std::span<const std::byte> raw = taken.bytes;
    ByteSource in(raw, context);
    // Chunks the tree is not built from (unknown ancillary ones, the per-sample records) are kept
    // as they are for whoever reads them (sample_records.h, causal_records.h).
    const auto keep = [&] { s.extra_chunks.emplace_back(h.tag, std::vector<std::byte>(raw.begin(), raw.end())); };
    if (!known) {
      keep();
    } else {
      switch (known->id) {
        case ChunkId::meta:
          decode_meta(in, s.metadata);
          break;
        case ChunkId::strings:
          decode_strings(in, s.names);
          break;
        case ChunkId::nodes:
          s.early_walk.reset();
          if (taken.growing != nullptr)  // started as it grows
            decode_growing_nodes(chunks, taken, payload, h.raw_size, context, s, limits.nodes);
          else
            decode_nodes(in, s.table, s.names.size(), limits.nodes);
          break;
        case ChunkId::costs:
          if (!s.costs_read)
            s.early_walk = EarlyWalk::begin(s.table, s.names.size());
          else
            s.early_walk.reset();
          s.costs_read = true;
          decode_costs(in, s.table.cost, s.costs, s.early_walk.get());
          break;
        case ChunkId::metrics:
          if (s.metrics_declared) throw Error(context + ": a second MTRC chunk (extra metrics are declared once)");
          for (MetricSpec& spec : decode_metrics(in)) s.extra_metrics.push_back({std::move(spec), {}});
          s.metric_costs.resize(s.extra_metrics.size());
          s.metrics_declared = true;
          break;
        case ChunkId::metric_costs: {
          const std::uint32_t metric = decode_metric_index(in, s.extra_metrics.size());
          if (s.metric_totals_read) throw Error(context + ": metric costs after the MTOT chunk");
          grow_metric_columns(s, limits, context);
          decode_costs(in, s.extra_metrics[metric - 1].cost, s.metric_costs[metric - 1]);
          break;
        }
        case ChunkId::metric_totals:
          grow_metric_columns(s, limits, context);
          verify_metric_totals(decode_metric_totals(in), s, context);
          s.metric_totals_read = true;
          break;
        case ChunkId::end:
          end = decode_end(in);
          verify_end(*end, s, context);
          if (!s.extra_metrics.empty() && !s.metric_totals_read)
            throw Error(context + ": the file declares extra metrics but has no MTOT chunk with their totals");
          break;
        case ChunkId::threads:
        case ChunkId::samples:
        case ChunkId::causal:
          keep();
          break;
      }
    }
    pos += kChunkHeaderSize + h.payload_size;
    ++walk.complete_chunks;
  }
  walk.end_offset = pos;
  grow_metric_columns(s, limits, prefix);
  return walk;
}

// A file's chunks decoded: what the tree is built from once the file's bytes may go.
struct DecodedChunks {
  ReadState state;
  ChunkWalk walk;
};

DecodedChunks decode_file(std::span<const std::byte> bytes, const std::string& prefix) {
  check_header(bytes, prefix);
  DecodedChunks decoded;
  decoded.walk = read_chunks(bytes, prefix, decoded.state);
  return decoded;
}

LoadedProfile build_loaded(DecodedChunks decoded, std::string_view source_name, const std::string& prefix,
                           const LoadOptions& options) {
  ReadState& s = decoded.state;
  const ChunkWalk& walk = decoded.walk;
  const std::optional<EndCounts>& end = walk.end;
  s.metadata.merge_repeated_extras();
  std::string warning;
  if (!end) {
    const std::string why = walk.cut_off.empty()
                                ? "the file ends at byte " + std::to_string(walk.end_offset) + " without an END chunk"
                                : walk.cut_off;
    if (!options.accept_unfinished)
      throw UnfinishedProfileError(prefix + ": " + why + " (truncated, or the recorder did not finish)");
    warning = "profile '" + std::string(source_name) + "' is unfinished (the recorder did not finish): " + why +
              "; read the " + std::to_string(walk.complete_chunks) + " complete chunks before it";
  }
  if (s.early_walk) s.table.walked = s.early_walk->finish();
  s.early_walk.reset();
  try {
    return LoadedProfile{
        CallTree::build(std::move(s.table), std::move(s.names), std::move(s.metadata), std::move(s.extra_metrics)),
        !end.has_value(), std::move(warning), std::move(s.extra_chunks)};
  } catch (const Error& e) {
    throw Error(prefix + ": " + e.what());
  }
}

std::string read_prefix(std::string_view source_name) {
  return "cannot read profile '" + std::string(source_name) + "'";
}

}  // namespace

bool is_native_profile(std::span<const std::byte> head) {
  return head.size() >= kProfileMagic.size() && std::equal(kProfileMagic.begin(), kProfileMagic.end(), head.begin());
}

bool ends_with_end_chunk(const std::filesystem::path& path) {
  // The END chunk's payload is one zstd frame of three varints: well under this many bytes.
  constexpr std::size_t kTail = 256;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  std::array<std::byte, kTail> tail{};
  std::size_t size = 0;
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long end = std::ftell(f);
    const long from = std::max<long>(0, end - static_cast<long>(kTail));
    if (end > 0 && std::fseek(f, from, SEEK_SET) == 0) size = std::fread(tail.data(), 1, tail.size(), f);
  }
  std::fclose(f);
  // A header at i whose tag is END and whose payload runs exactly to the file's end.
  for (std::size_t i = size >= kChunkHeaderSize ? size - kChunkHeaderSize + 1 : 0; i-- > 0;) {
    const ChunkHeader h = chunk_header_fields(std::span<const std::byte>(tail).subspan(i, kChunkHeaderSize));
    if (h.tag == kTagEnd && i + kChunkHeaderSize + h.payload_size == size) return true;
  }
  return false;
}

LoadedProfile read_profile_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                                 const LoadOptions& options) {
  const std::string prefix = read_prefix(source_name);
  return build_loaded(decode_file(bytes, prefix), source_name, prefix, options);
}

LoadedProfile read_profile(const std::filesystem::path& path, const LoadOptions& options) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error("cannot open profile '" + path.string() + "': " + std::strerror(errno));
  // Read straight into a buffer of the file's size, not zeroed first (a 10M-node file is 28 MB)
  // and on huge pages from 1 MiB on (fresh_buffer.h); a file that grows meanwhile (a recorder
  // still appending) is read to where it ends.
  std::error_code ec;
  std::size_t capacity = std::filesystem::file_size(path, ec);
  if (ec) capacity = 0;
  FreshBuffer bytes(std::max<std::size_t>(capacity + 1, std::size_t{1} << 16));
  std::size_t size = 0;
  for (std::size_t n; (n = std::fread(bytes.data() + size, 1, bytes.capacity() - size, f)) > 0;) {
    size += n;
    if (size < bytes.capacity()) continue;
    FreshBuffer bigger(2 * bytes.capacity());
    std::memcpy(bigger.data(), bytes.data(), size);
    bytes = std::move(bigger);
  }
  const bool failed = std::ferror(f);
  const int error = errno;
  std::fclose(f);
  const std::string prefix = read_prefix(path.string());
  if (failed) throw Error(prefix + ": " + std::strerror(error));
  DecodedChunks decoded = decode_file(std::span<const std::byte>(bytes.data(), size), prefix);
  // Everything decoded owns its bytes: the file's go before the tree's columns are made, so
  // that they need 28 MB less (at 10M nodes) and may reuse the pages just freed.
  bytes = FreshBuffer();
  return build_loaded(std::move(decoded), path.string(), prefix, options);
}

}  // namespace bn::calltree
