#pragma once
// Helpers shared by the native profile format tests: in-memory streams, hand-made files and a
// scratch directory.

#include <stdio.h>
#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "byte_codec.h"
#include "chunk_framing.h"
#include "temp_dir.h"

namespace bn::calltree::test {

// An open_memstream stream, closed and freed however the test using it ends (several expect
// the writer to throw).
struct MemoryStream {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* file = ::open_memstream(&buf, &len);
  MemoryStream() {
    if (!file) throw Error("open_memstream failed");
  }
  MemoryStream(const MemoryStream&) = delete;
  MemoryStream& operator=(const MemoryStream&) = delete;
  ~MemoryStream() {
    if (file) std::fclose(file);
    std::free(buf);
  }
  // Flushes and closes the stream; its bytes.
  std::vector<std::byte> close() {
    std::fclose(file);
    file = nullptr;
    return {reinterpret_cast<std::byte*>(buf), reinterpret_cast<std::byte*>(buf) + len};
  }
};

// The bytes a ProfileStreamWriter produces when `body` drives it.
inline std::vector<std::byte> stream_bytes(const std::function<void(ProfileStreamWriter&)>& body,
                                           std::uint32_t max_chunk_raw = kMaxChunkRawSize,
                                           int compression_level = kDefaultCompressionLevel) {
  MemoryStream stream;
  {
    ProfileStreamWriter w(stream.file, max_chunk_raw, compression_level);
    body(w);
  }
  return stream.close();
}

// A valid file header followed by nothing.
inline std::vector<std::byte> header_bytes() {
  return stream_bytes([](ProfileStreamWriter&) {});
}

// Appends a chunk with any tag and payload, bypassing the writer's checks.
inline void add_chunk(std::vector<std::byte>& file, ChunkTag tag, const ByteSink& raw) {
  const auto chunk = encode_chunk(tag, raw.data());
  file.insert(file.end(), chunk.begin(), chunk.end());
}

// The error reading `bytes` as the file `name` reports, or "(no error)".
inline std::string load_error(const std::vector<std::byte>& bytes, const std::string& name,
                              const LoadOptions& options = {}) {
  try {
    (void)read_profile_bytes(bytes, name, options);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Overwrites the little-endian 32-bit field at byte `at` (a chunk's sizes, the header's version).
inline void put_u32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::byte>(v >> (8 * i));
}

// Writes `bytes` to the file `path`, replacing it.
inline void write_file(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out.good()) throw Error("cannot write '" + path.string() + "'");
}

// A fresh directory removed with its contents at scope exit.
using bn::test::TempDir;

}  // namespace bn::calltree::test
