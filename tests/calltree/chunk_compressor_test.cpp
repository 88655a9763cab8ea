// ChunkCompressor (calltree/format/src/chunk_framing.h) keeps one zstd context and one output
// buffer for every chunk a writer emits: each chunk must come out byte for byte as a chunk encoded
// on its own, whatever came before it (a larger one, a refused one).

#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <span>
#include <vector>

#include "chunk_framing.h"

using namespace bn::calltree;

TEST_CASE("a compressor compresses at the level it was made with, and its chunks decode to their bytes") {
  std::mt19937 rng(5);
  std::vector<std::byte> raw(1'000'000);
  for (std::byte& b : raw) b = static_cast<std::byte>(rng() % 3 == 0 ? rng() % 256 : rng() % 4);
  std::vector<std::vector<std::byte>> chunks;
  ChunkDecompressor decompressor;
  for (const int level : {1, 3, kDefaultCompressionLevel}) {
    CAPTURE(level);
    ChunkCompressor compressor(level);
    const auto chunk = compressor.encode("NODE", raw);
    chunks.emplace_back(chunk.begin(), chunk.end());
    const ChunkHeader header = decode_chunk_header(chunk, "chunk");
    const auto back = decompressor.decompress(std::span(chunk).subspan(kChunkHeaderSize), header.raw_size, "chunk");
    CHECK(std::vector<std::byte>(back.begin(), back.end()) == raw);
  }
  CHECK(chunks[0] != chunks[2]);
  CHECK(chunks[1] != chunks[2]);
  CHECK(chunks[2] == encode_chunk("NODE", raw));  // the default level is encode_chunk's
}

TEST_CASE("chunks encoded one after another by one compressor equal chunks encoded alone") {
  std::mt19937 rng(12);
  ChunkCompressor compressor;
  const ChunkTag tag = "NODE";
  for (int i = 0; i < 40; ++i) {
    CAPTURE(i);
    // Sizes up and down (a small chunk after a large one reuses a larger buffer), and bytes of
    // few values, so that the frames compress and their lengths differ.
    const std::size_t size = i % 7 == 0 ? 0 : rng() % (i % 3 == 0 ? 3'000'000 : 5'000);
    std::vector<std::byte> raw(size);
    for (std::byte& b : raw) b = static_cast<std::byte>(rng() % (1 + i % 5));
    if (i % 9 == 4) CHECK_THROWS(compressor.encode(ChunkTag("1xyz"), raw));  // refused tag
    const auto chunk = compressor.encode(tag, raw);
    const std::vector<std::byte> alone = encode_chunk(tag, raw);
    CHECK(std::vector<std::byte>(chunk.begin(), chunk.end()) == alone);
  }
}
