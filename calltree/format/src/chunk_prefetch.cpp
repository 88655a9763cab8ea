#include "chunk_prefetch.h"

#include <utility>

namespace bn::calltree {

void ChunkPrefetch::start(std::span<const std::byte> payload, std::uint32_t raw_size, std::string context,
                          bool as_it_grows) {
  if (raw_size < kAheadRawSize) return;
  const std::size_t spare_index = 1 - current_;
  ChunkDecompressor& spare = decompressors_[spare_index];
  const std::span<const std::byte> bytes = spare.reserve(raw_size);
  // Two decompressions at once would leave the decoders of the growing chunk a core less.
  const GrowingPayload* before = growing_chunk_.valid() ? &growing_[current_] : nullptr;
  ahead_grows_ = as_it_grows;
  ahead_bytes_ = bytes;
  if (as_it_grows) {
    GrowingPayload& growing = growing_[spare_index];
    growing.restart();
    ahead_ = std::async(std::launch::async, [&spare, &growing, before, payload, raw_size, bytes] {
      try {
        if (before != nullptr) before->wait_whole();
        spare.decompress_growing(payload, raw_size, growing);
      } catch (...) {
        growing.finish(false);  // its decoders and the chunk after it wait for the end
        throw;
      }
      return bytes;
    });
    return;
  }
  ahead_ = std::async(std::launch::async, [&spare, before, payload, raw_size, context = std::move(context)] {
    if (before != nullptr) before->wait_whole();
    return spare.decompress(payload, raw_size, context);
  });
}

ChunkPrefetch::Taken ChunkPrefetch::take(std::span<const std::byte> payload, std::uint32_t raw_size,
                                         const std::string& context) {
  // A chunk not decompressed ahead reuses the buffer of the one before: two are alive only when
  // one is decompressed ahead.
  if (!ahead_.valid()) return {decompressors_[current_].decompress(payload, raw_size, context)};
  current_ = 1 - current_;
  if (!ahead_grows_) return {ahead_.get()};
  // The decompression goes on; grown() waits for it. Its bytes are where reserve put them.
  growing_chunk_ = std::move(ahead_);
  return {ahead_bytes_, &growing_[current_]};
}

bool ChunkPrefetch::grown() {
  if (growing_chunk_.valid()) growing_chunk_.get();
  return growing_[current_].wait_whole();
}

std::span<const std::byte> ChunkPrefetch::whole_again(std::span<const std::byte> payload, std::uint32_t raw_size,
                                                      const std::string& context) {
  grown();
  return decompressors_[current_].decompress(payload, raw_size, context);
}

}  // namespace bn::calltree
