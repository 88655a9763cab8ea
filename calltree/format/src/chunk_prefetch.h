#pragma once
// Chunk payloads decompressed one chunk ahead (profile_reader.cpp): while one chunk is decoded, a
// second thread decompresses the next, so that at 10M nodes the NODE chunk's decompression
// (~60 ms) runs under the decoding of the names and the COST chunk's (~17 ms) under the nodes'.
// Two decompressors take turns, so the bytes of the chunk being decoded stay where they are.
// A chunk started `as_it_grows` (the NODE chunk) is taken before its decompression ends: its
// decoder reads the bytes as they come out (growing_payload.h) instead of waiting for the whole.
// Internal to bn_calltree.

#include <cstddef>
#include <cstdint>
#include <future>
#include <span>
#include <string>

#include "chunk_framing.h"
#include "growing_payload.h"

namespace bn::calltree {

class ChunkPrefetch {
 public:
  // Chunks smaller than this are decompressed when they are reached: a thread costs ~0.1 ms to
  // start, what decompressing 100 KB takes, and a recorder's periodic flushes write small chunks.
  static constexpr std::uint32_t kAheadRawSize = std::uint32_t{1} << 20;

  // A chunk's raw bytes; while `growing` is set, only as far as it says they are out.
  struct Taken {
    std::span<const std::byte> bytes;
    const GrowingPayload* growing = nullptr;
  };

  // Starts decompressing the next chunk on a second thread, if it is big enough to be worth one:
  // ChunkDecompressor::decompress's arguments, `payload` valid until take. The next take must be
  // for that chunk. It starts once a chunk still growing before it is out.
  void start(std::span<const std::byte> payload, std::uint32_t raw_size, std::string context, bool as_it_grows);
  // The raw bytes of the next chunk, valid until the next take: the ones started for it (its
  // error, if it had one, thrown now; growing, if it was started as it grows), else decompressed
  // now, on this thread.
  Taken take(std::span<const std::byte> payload, std::uint32_t raw_size, const std::string& context);
  // For a chunk taken growing: waits for its decompression to end; whether its bytes came out
  // whole. When not, whatever its decoder found is void: whole_again says why.
  bool grown();
  // The chunk taken last decompressed again, whole, on this thread: its error, the one it has
  // without growing (or, were zstd to succeed now, its bytes).
  std::span<const std::byte> whole_again(std::span<const std::byte> payload, std::uint32_t raw_size,
                                         const std::string& context);

 private:
  ChunkDecompressor decompressors_[2];
  GrowingPayload growing_[2];               // of each decompressor's chunk, when started as it grows
  std::size_t current_ = 0;                 // the decompressor holding the bytes take returned last
  bool ahead_grows_ = false;                // the chunk decompressing ahead is started as it grows
  std::span<const std::byte> ahead_bytes_;  // where its bytes come out
  // Destroyed first: their destructors join a decompression still running (whose result, or
  // error, is dropped when the reader stopped at an earlier chunk). `growing_chunk_` is the
  // chunk taken growing; a chunk started after it waits for it to end first.
  std::future<std::span<const std::byte>> ahead_;
  std::future<std::span<const std::byte>> growing_chunk_;
};

}  // namespace bn::calltree
