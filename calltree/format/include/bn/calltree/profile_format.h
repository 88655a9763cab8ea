#pragma once
// Constants of the native profile file format (docs/profile-format.md is the byte-level spec).
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

inline constexpr ChunkTag kTagMeta("META");     // metadata key/value pairs
inline constexpr ChunkTag kTagStrings("STRS");  // method names, ids continue across chunks
inline constexpr ChunkTag kTagNodes("NODE");    // parent and method columns, ids continue
inline constexpr ChunkTag kTagCosts("COST");    // cost increments per node
inline constexpr ChunkTag kTagEnd("END ");      // counts that prove the file is complete
// Profiles with several metrics (metric.h). Critical: a reader that knows only one metric must
// refuse such a file rather than drop metrics silently when it converts it.
inline constexpr ChunkTag kTagMetrics("MTRC");       // names and units of metrics 1..n
inline constexpr ChunkTag kTagMetricCosts("MCST");   // cost increments per node of one metric
inline constexpr ChunkTag kTagMetricTotals("MTOT");  // total cost of each of metrics 1..n

}  // namespace bn::calltree
