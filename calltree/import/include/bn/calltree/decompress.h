#pragma once
// Reading bytes that may be compressed: plain, gzip (zlib) or zstd, recognised by their magic
// bytes rather than a file name, since profiles get renamed and piped (`profile.txt` that is
// really gzip). Output comes in bounded chunks and a compressed input that expands beyond a cap
// is refused, so a small hostile file cannot make a reader allocate or spin without limit.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "bn/calltree/import_options.h"

namespace bn::calltree {

enum class Compression { none, gzip, zstd };

// The compression of data starting with `head`; fewer than 4 bytes are always `none`.
Compression detect_compression(std::span<const std::byte> head);
std::string_view compression_name(Compression c);

class DecompressingInput {
 public:
  // Throws bn::Error "cannot open 'path': reason" if the file cannot be opened. `progress`, if
  // set, is told the bytes read from the file so far and the file's size after every read.
  static DecompressingInput open_file(const std::filesystem::path& path, std::uint64_t max_output_bytes,
                                      ProgressFn progress = {});
  // `bytes` must outlive the returned object.
  static DecompressingInput from_bytes(std::span<const std::byte> bytes, std::string source_name,
                                       std::uint64_t max_output_bytes);
  DecompressingInput(DecompressingInput&&) noexcept;
  DecompressingInput& operator=(DecompressingInput&&) noexcept;
  ~DecompressingInput();

  // Copies the next decompressed bytes into `out` and returns how many; 0 only at the end (or
  // for an empty `out`). Throws bn::Error "<source>: what" on a read error, corrupt or truncated
  // compressed data, or when a compressed input expands beyond max_output_bytes (plain input is
  // not capped: its size is the file's size).
  std::size_t read(std::span<char> out);

  Compression compression() const;
  const std::string& source_name() const;

 private:
  struct Impl;
  explicit DecompressingInput(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bn::calltree
