#pragma once
// Chunk framing of the native profile format (docs/profile-format.md, "Chunks"): a 12-byte
// header (tag, u32le payload size, u32le raw size) and a payload that is one checksummed zstd
// frame. Internal to bn_calltree.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/profile_format.h"
#include "fresh_buffer.h"
#include "growing_payload.h"

namespace bn::calltree {

void put_u32le(std::vector<std::byte>& out, std::uint32_t v);
std::uint32_t get_u32le(std::span<const std::byte> at);

// A tag is an ASCII letter followed by three printable ASCII characters.
bool is_valid_tag(ChunkTag tag);
ChunkTag tag_at(std::span<const std::byte> at);
// The tag for messages: its characters, or hex escapes for unprintable bytes.
std::string describe_tag(ChunkTag tag);

// Encodes chunks one after another with one zstd context and one output buffer. Made per chunk,
// a level-9 context's tables and the output are fresh pages every time: the call-tree agent
// writes chunks of hundreds of MB on a large compilation, where fresh pages cost the flusher more
// than compressing (bench/LOG.md, "The flusher's fresh pages").
class ChunkCompressor {
 public:
  // `level`: zstd's compression level.
  explicit ChunkCompressor(int level = kDefaultCompressionLevel);
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  // Header and payload of one chunk, ready to write in one call; valid until the next call.
  // Throws bn::Error if the tag is invalid, `raw` exceeds kMaxChunkRawSize or zstd fails.
  std::span<const std::byte> encode(ChunkTag tag, std::span<const std::byte> raw);

 private:
  struct Context;
  std::unique_ptr<Context> context_;
  int level_;
  std::vector<std::byte> out_;
};

// One chunk encoded on its own (tests, tools) at the default level: ChunkCompressor's encoding, copied.
std::vector<std::byte> encode_chunk(ChunkTag tag, std::span<const std::byte> raw);

struct ChunkHeader {
  ChunkTag tag;
  std::uint32_t payload_size = 0;
  std::uint32_t raw_size = 0;
};
// Reads a chunk header's fields as they are (the reader's look at the next chunk, which must not
// throw before the current one is decoded).
ChunkHeader chunk_header_fields(std::span<const std::byte> at);
// Reads and checks a chunk header (valid tag, sizes within limits); `context` prefixes errors.
ChunkHeader decode_chunk_header(std::span<const std::byte> at, const std::string& context);

// Decompresses chunk payloads, each exactly one zstd frame with a content checksum and exactly
// its declared raw size of content, into one buffer reused from chunk to chunk: no zeroing, no
// regrowth and no page faults but the first (a tenth of a 10M-node load went to them). The
// buffer is sized from the declared raw size, which the reader bounds by the file's size before
// asking (profile_reader.cpp, InputLimits), and from 1 MiB on is on huge pages (fresh_buffer.h).
class ChunkDecompressor {
 public:
  ChunkDecompressor();
  ~ChunkDecompressor();
  ChunkDecompressor(const ChunkDecompressor&) = delete;
  ChunkDecompressor& operator=(const ChunkDecompressor&) = delete;

  // The raw bytes of `payload`, valid until the next call. Throws bn::Error naming `context` for
  // a payload that is no zstd frame, is corrupt, or holds more or fewer bytes than `raw_size`.
  std::span<const std::byte> decompress(std::span<const std::byte> payload, std::uint32_t raw_size,
                                        const std::string& context);
  // Makes room for a payload of `raw_size` raw bytes now (on this thread: ChunkPrefetch allocates
  // before a second thread decompresses, so the memory does not come from that thread's arena):
  // where decompress and decompress_growing put it.
  std::span<const std::byte> reserve(std::uint32_t raw_size);
  // decompress's bytes, each published to `growing` as it comes out, and its end: whether they
  // came out whole. Never throws for a bad payload: decompress, run again, says why. zstd writes
  // them in place (ZSTD_d_stableOutBuffer), fed the payload a piece at a time.
  void decompress_growing(std::span<const std::byte> payload, std::uint32_t raw_size, GrowingPayload& growing);

 private:
  struct Context;
  std::unique_ptr<Context> zstd_;
  FreshBuffer buffer_;
};

}  // namespace bn::calltree
