#pragma once
// Chunk payloads decompressed one chunk ahead (profile_reader.cpp): while one chunk is decoded, a
// second thread decompresses the next, so that at 10M nodes the NODE chunk's decompression
// (~60 ms) runs under the decoding of the names and the COST chunk's (~17 ms) under the nodes'.
// Two decompressors take turns, so the bytes of the chunk being decoded stay where they are.
// Internal to bn_calltree.

#include <cstddef>
#include <cstdint>
#include <future>
#include <span>
#include <string>

#include "chunk_framing.h"

namespace bn::calltree {

class ChunkPrefetch {
 public:
  // Chunks smaller than this are decompressed when they are reached: a thread costs ~0.1 ms to
  // start, what decompressing 100 KB takes, and a recorder's periodic flushes write small chunks.
  static constexpr std::uint32_t kAheadRawSize = std::uint32_t{1} << 20;

  // Starts decompressing the next chunk on a second thread, if it is big enough to be worth one:
  // ChunkDecompressor::decompress's arguments, `payload` valid until take. The next take must be
  // for that chunk.
  void start(std::span<const std::byte> payload, std::uint32_t raw_size, std::string context);
  // The raw bytes of the next chunk, valid until the next take: the ones started for it (its
  // error, if it had one, thrown now), else decompressed now, on this thread.
  std::span<const std::byte> take(std::span<const std::byte> payload, std::uint32_t raw_size,
                                  const std::string& context);

 private:
  ChunkDecompressor decompressors_[2];
  std::size_t current_ = 0;  // the decompressor holding the bytes take returned last
  // Destroyed first: its destructor joins a decompression still running (whose result, or error,
  // is dropped when the reader stopped at an earlier chunk).
  std::future<std::span<const std::byte>> ahead_;
};

}  // namespace bn::calltree
