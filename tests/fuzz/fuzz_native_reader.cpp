// libFuzzer entry point for the native profile reader: any byte string must either load or
// throw bn::Error; a crash, sanitizer report, hang or out-of-memory is a bug.
//
// The first input byte picks how the rest is read. Even: as a whole file, which exercises the
// header and chunk framing. Odd: as a list of chunks, [4-byte tag][u16le length][raw bytes]...,
// that this harness compresses and frames itself, because mutated zstd frames almost never pass
// the content checksum and would leave the payload decoders unexplored.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "chunk_framing.h"

namespace {

std::vector<std::byte> frame_chunks(std::span<const std::byte> list) {
  std::vector<std::byte> file(bn::calltree::kProfileMagic.begin(), bn::calltree::kProfileMagic.end());
  bn::calltree::put_u32le(file, bn::calltree::kProfileVersion);
  bn::calltree::put_u32le(file, 0);
  while (list.size() >= 6) {
    const bn::calltree::ChunkTag tag = bn::calltree::tag_at(list);
    const std::size_t len = std::min<std::size_t>(
        list.size() - 6, std::to_integer<std::size_t>(list[4]) | std::to_integer<std::size_t>(list[5]) << 8);
    try {
      const auto chunk = bn::calltree::encode_chunk(tag, list.subspan(6, len));
      file.insert(file.end(), chunk.begin(), chunk.end());
    } catch (const bn::Error&) {
      // An invalid tag: the chunk is left out.
    }
    list = list.subspan(6 + len);
  }
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::byte> input(reinterpret_cast<const std::byte*>(data), size);
  const std::vector<std::byte> framed = (data[0] & 1) ? frame_chunks(input.subspan(1)) : std::vector<std::byte>{};
  const std::span<const std::byte> file = (data[0] & 1) ? std::span<const std::byte>(framed) : input.subspan(1);
  for (const bool accept_unfinished : {false, true}) {
    try {
      (void)bn::calltree::read_profile_bytes(file, "fuzz input", {.accept_unfinished = accept_unfinished});
    } catch (const bn::Error&) {
    }
  }
  return 0;
}
