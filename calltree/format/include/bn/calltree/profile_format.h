#pragma once
// Constants of the native profile file format and the table of the chunks this version knows
// (docs/profile-format.md is the byte-level spec).
//
// A file is a 16-byte header followed by chunks. Each chunk is a 4-character tag, the size of
// its zstd payload and the size of that payload once decompressed. A tag whose first letter is
// uppercase is critical (a reader that does not know it must refuse the file); lowercase tags
// are ancillary (skipped by readers that do not know them), as in PNG.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bn::calltree {

// PNG-style: a non-ASCII first byte catches 7-bit channels, "\r\n" and "\n" catch newline
// translation, 0x1a stops `type` on DOS.
inline constexpr std::array<std::byte, 8> kProfileMagic = {std::byte{0x89}, std::byte{'B'},  std::byte{'N'},
                                                           std::byte{'P'},  std::byte{'\r'}, std::byte{'\n'},
                                                           std::byte{0x1a}, std::byte{'\n'}};
inline constexpr std::uint32_t kProfileVersion = 1;
inline constexpr std::size_t kProfileHeaderSize = 16;  // magic, u32le version, u32le flags
inline constexpr std::size_t kChunkHeaderSize = 12;    // tag, u32le payload size, u32le raw size
// Largest decompressed chunk a writer produces and a reader accepts; bigger tables are split.
inline constexpr std::uint32_t kMaxChunkRawSize = std::uint32_t{1} << 30;
// The zstd level a writer compresses chunks at unless told otherwise. Level 9 brings realistic
// trees under 6 bytes per node (docs/performance.md) and still compresses tens of MB/s; the
// recorder agent streams at a lower level (profile_sink.cpp), where the CPU is the program's.
inline constexpr int kDefaultCompressionLevel = 9;

// A chunk's 4-byte ASCII tag, e.g. ChunkTag("NODE").
struct ChunkTag {
  std::array<char, 4> chars{};

  constexpr ChunkTag() = default;
  // Implicit so a literal reads as a tag: w.write_chunk("smpl", bytes).
  constexpr ChunkTag(const char (&s)[5]) : chars{s[0], s[1], s[2], s[3]} {}  // NOLINT
  constexpr explicit ChunkTag(std::array<char, 4> c) : chars(c) {}

  constexpr std::string_view view() const { return {chars.data(), chars.size()}; }
  // Critical chunks (uppercase first letter) change how the tree is read; see the header comment.
  constexpr bool critical() const { return chars[0] >= 'A' && chars[0] <= 'Z'; }
  friend constexpr bool operator==(const ChunkTag&, const ChunkTag&) = default;
};

// Every chunk this version knows, one row each: its tag, who decodes it and what it holds. The
// reader refuses a critical tag that is not here, the writer keeps the tree's own tags to its
// own methods, `convert` renumbers the per-sample records it finds here and drops the rest, and
// docs/profile-format.md documents every tag (a test holds both to this table).
enum class ChunkId : std::uint8_t {
  meta,
  strings,
  nodes,
  costs,
  metrics,
  metric_costs,
  metric_totals,
  end,
  threads,
  samples,
  causal
};

// Who decodes a known chunk.
enum class ChunkReader : std::uint8_t {
  // read_profile, into the CallTree; written only through ProfileStreamWriter's own methods.
  tree,
  // decode_sample_data (sample_records.h), from LoadedProfile::extra_chunks; ancillary, so a
  // plain call tree loads without them. Node ids in them are the file's: rewriting a tree
  // renumbers them (encode_sample_data).
  sample_records,
  // decode_causal (causal_records.h), from LoadedProfile::extra_chunks; ancillary, and free of
  // node ids, so a rewritten tree keeps it as it is.
  causal,
};

struct KnownChunk {
  ChunkId id;
  ChunkTag tag;
  ChunkReader reader;
  std::string_view holds;  // one line: what its payload holds
};

inline constexpr auto kKnownChunks = std::to_array<KnownChunk>({
    {ChunkId::meta, ChunkTag("META"), ChunkReader::tree, "metadata key/value pairs"},
    {ChunkId::strings, ChunkTag("STRS"), ChunkReader::tree, "method names; ids continue across chunks"},
    {ChunkId::nodes, ChunkTag("NODE"), ChunkReader::tree, "parent and method columns; ids continue"},
    {ChunkId::costs, ChunkTag("COST"), ChunkReader::tree, "cost increments per node"},
    // Profiles with several metrics (metric.h). Critical: a reader that knows only one metric
    // must refuse such a file rather than drop metrics silently when it converts it.
    {ChunkId::metrics, ChunkTag("MTRC"), ChunkReader::tree, "names and units of metrics 1..n"},
    {ChunkId::metric_costs, ChunkTag("MCST"), ChunkReader::tree, "cost increments per node of one metric"},
    {ChunkId::metric_totals, ChunkTag("MTOT"), ChunkReader::tree, "total cost of each of metrics 1..n"},
    {ChunkId::end, ChunkTag("END "), ChunkReader::tree, "counts that prove the file is complete"},
    {ChunkId::threads, ChunkTag("thrd"), ChunkReader::sample_records, "thread table entries, new or updated"},
    {ChunkId::samples, ChunkTag("smpl"), ChunkReader::sample_records,
     "parents of the nodes appended since the last smpl chunk, then ticks of per-thread records"},
    {ChunkId::causal, ChunkTag("caus"), ChunkReader::causal,
     "causal experiments: their targets and progress points, then the experiments since the last"},
});

// The row of `tag`, or null for a tag this version does not know.
constexpr const KnownChunk* find_known_chunk(ChunkTag tag) {
  for (const KnownChunk& c : kKnownChunks)
    if (c.tag == tag) return &c;
  return nullptr;
}

constexpr ChunkTag chunk_tag(ChunkId id) {
  for (const KnownChunk& c : kKnownChunks)
    if (c.id == id) return c.tag;
  return {};
}

// The tags by name, for the code that writes or tests one chunk.
inline constexpr ChunkTag kTagMeta = chunk_tag(ChunkId::meta);
inline constexpr ChunkTag kTagStrings = chunk_tag(ChunkId::strings);
inline constexpr ChunkTag kTagNodes = chunk_tag(ChunkId::nodes);
inline constexpr ChunkTag kTagCosts = chunk_tag(ChunkId::costs);
inline constexpr ChunkTag kTagEnd = chunk_tag(ChunkId::end);
inline constexpr ChunkTag kTagMetrics = chunk_tag(ChunkId::metrics);
inline constexpr ChunkTag kTagMetricCosts = chunk_tag(ChunkId::metric_costs);
inline constexpr ChunkTag kTagMetricTotals = chunk_tag(ChunkId::metric_totals);
inline constexpr ChunkTag kTagThreads = chunk_tag(ChunkId::threads);
inline constexpr ChunkTag kTagSamples = chunk_tag(ChunkId::samples);
inline constexpr ChunkTag kTagCausal = chunk_tag(ChunkId::causal);

}  // namespace bn::calltree
