// Writes the zstd frames of a native profile's chunks, back to back, to one .zst file: `zstd -d`
// of it decompresses exactly the bytes that opening the profile decompresses, the yardstick for
// opening (docs/performance.md, "Opening a profile"). Layout: docs/profile-format.md, a header
// then chunks of a tag, a u32le payload size, a u32le raw size and one zstd frame.
//
// Usage: bn_zstd_frames PROFILE OUT.zst

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "bn/calltree/profile_format.h"

namespace {

std::uint32_t u32le(const std::vector<char>& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PROFILE OUT.zst\n", argv[0]);
    return 1;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  using bn::calltree::kChunkHeaderSize;
  using bn::calltree::kProfileHeaderSize;
  if (!in || bytes.size() < kProfileHeaderSize) {
    std::fprintf(stderr, "%s: cannot read a native profile\n", argv[1]);
    return 1;
  }
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  std::size_t pos = kProfileHeaderSize, frames = 0;
  while (pos + kChunkHeaderSize <= bytes.size()) {
    const std::size_t payload = u32le(bytes, pos + 4);
    if (pos + kChunkHeaderSize + payload > bytes.size()) break;
    out.write(bytes.data() + pos + kChunkHeaderSize, static_cast<std::streamsize>(payload));
    pos += kChunkHeaderSize + payload;
    ++frames;
  }
  if (pos != bytes.size() || !out.flush()) {
    std::fprintf(stderr, "%s: a chunk is cut off at byte %zu, or %s cannot be written\n", argv[1], pos, argv[2]);
    return 1;
  }
  std::printf("%zu frames, %zu bytes\n", frames, pos);
  return 0;
}
