#pragma once
// Chunk framing of the native profile format (docs/profile-format.md, "Chunks"): a 12-byte
// header (tag, u32le payload size, u32le raw size) and a payload that is one checksummed zstd
// frame. Internal to bn_calltree.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/profile_format.h"

namespace bn::calltree {

void put_u32le(std::vector<std::byte>& out, std::uint32_t v);
std::uint32_t get_u32le(std::span<const std::byte> at);

// A tag is an ASCII letter followed by three printable ASCII characters.
bool is_valid_tag(ChunkTag tag);
ChunkTag tag_at(std::span<const std::byte> at);
// The tag for messages: its characters, or hex escapes for unprintable bytes.
std::string describe_tag(ChunkTag tag);

// Header and payload of one chunk, ready to write in one call. Throws bn::Error if the tag is
// invalid, `raw` exceeds kMaxChunkRawSize or zstd fails.
std::vector<std::byte> encode_chunk(ChunkTag tag, std::span<const std::byte> raw);

struct ChunkHeader {
  ChunkTag tag;
  std::uint32_t payload_size = 0;
  std::uint32_t raw_size = 0;
};
// Reads and checks a chunk header (valid tag, sizes within limits); `context` prefixes errors.
ChunkHeader decode_chunk_header(std::span<const std::byte> at, const std::string& context);

// Decompresses a payload that must be exactly one zstd frame with a content checksum and
// exactly `raw_size` bytes of content. Output grows as zstd produces it and never past
// raw_size + 1, so a lying header cannot make the reader allocate more than the frame yields.
std::vector<std::byte> decompress_payload(std::span<const std::byte> payload, std::uint32_t raw_size,
                                          const std::string& context);

}  // namespace bn::calltree
