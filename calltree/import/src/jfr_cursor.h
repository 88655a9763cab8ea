#pragma once
// Reading the values of one JFR chunk. JFR has no published specification; the layout here is
// the JDK's own reader (jdk.jfr.internal.consumer: RecordingInput, StringParser, ChunkHeader,
// ChunkParser, MetadataReader): integers are big-endian in the chunk header and, when the
// header's flag byte says "compressed integers" (every JDK since 11), LEB128-like varints
// everywhere else, of at most 9 bytes, the 9th contributing all 8 of its bits. Every read is
// bounds-checked; a failure names the file, the chunk and the byte offset in the file.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace bn::calltree::jfr {

// Where a chunk is, for error messages.
struct ChunkPlace {
  const std::string* source = nullptr;
  std::size_t index = 0;         // 1 for the first chunk
  std::uint64_t file_offset = 0;  // of the chunk's first byte
  bool decompressed = false;      // offsets count decompressed bytes
};

// A string value: its text, or a key into the chunk's java.lang.String constant pool.
struct JfrString {
  std::string text;
  std::int64_t pool_key = -1;  // >= 0: text comes from the pool
};

class Cursor {
 public:
  Cursor(std::span<const std::uint8_t> chunk, bool compressed_ints, const ChunkPlace& place)
      : bytes_(chunk), compressed_(compressed_ints), place_(place) {}

  std::size_t pos() const { return pos_; }
  std::size_t size() const { return bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  // Moves to `pos` (at most the chunk's size).
  void seek(std::size_t pos);
  void skip(std::size_t n);

  std::uint8_t u8();
  // A fixed-width big-endian integer of `width` bytes (chunk header, float, double).
  std::uint64_t fixed(int width);
  // JFR's long, int, short and char: varints when compressed, else big-endian of 8, 4, 2, 2 bytes.
  std::int64_t i64();
  std::int32_t i32() { return static_cast<std::int32_t>(compressed_ ? varint() : fixed(4)); }
  void skip_i16() { compressed_ ? static_cast<void>(varint()) : skip(2); }
  // A count (array length, pool size, string length) that must fit in the bytes left, each
  // item taking at least one byte: no allocation or loop ever trusts a count beyond that.
  std::size_t count(const char* what);
  JfrString string();
  void skip_string();

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const;

 private:
  std::uint64_t varint();
  void need(std::size_t n, const char* what);

  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  bool compressed_;
  const ChunkPlace& place_;
};

}  // namespace bn::calltree::jfr
