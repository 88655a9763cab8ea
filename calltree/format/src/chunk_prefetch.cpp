#include "chunk_prefetch.h"

#include <utility>

namespace bn::calltree {

void ChunkPrefetch::start(std::span<const std::byte> payload, std::uint32_t raw_size, std::string context) {
  if (raw_size < kAheadRawSize) return;
  ChunkDecompressor& spare = decompressors_[1 - current_];
  spare.reserve(raw_size);
  ahead_ = std::async(std::launch::async, [&spare, payload, raw_size, context = std::move(context)] {
    return spare.decompress(payload, raw_size, context);
  });
}

std::span<const std::byte> ChunkPrefetch::take(std::span<const std::byte> payload, std::uint32_t raw_size,
                                               const std::string& context) {
  // A chunk not decompressed ahead reuses the buffer of the one before: two are alive only when
  // one is decompressed ahead.
  if (!ahead_.valid()) return decompressors_[current_].decompress(payload, raw_size, context);
  current_ = 1 - current_;
  return ahead_.get();
}

}  // namespace bn::calltree
