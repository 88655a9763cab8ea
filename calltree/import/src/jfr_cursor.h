#pragma once
// Reading the values of one JFR chunk. JFR has no published specification; the layout here is
// the JDK's own reader (jdk.jfr.internal.consumer: RecordingInput, StringParser, ChunkHeader,
// ChunkParser, MetadataReader): integers are big-endian in the chunk header and, in chunks whose
// flag byte says "compressed integers" (every JDK since 11; jfr_reader.cpp refuses others),
// LEB128-like varints everywhere else, of at most 9 bytes, the 9th contributing all 8 of its
// bits. Every read is bounds-checked; a failure names the file, the chunk and the byte offset.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace bn::calltree::jfr {

// Where a chunk is, for error messages.
struct ChunkPlace {
  const std::string* source = nullptr;
  std::size_t index = 0;          // 1 for the first chunk
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
  Cursor(std::span<const std::uint8_t> chunk, const ChunkPlace& place) : bytes_(chunk), place_(place) {}

  std::size_t pos() const { return pos_; }
  std::size_t size() const { return bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  // Moves to `pos` (at most the chunk's size).
  void seek(std::size_t pos);
  void skip(std::size_t n);

  std::uint8_t u8();
  // A fixed-width big-endian integer of `width` bytes (chunk header, float, double).
  std::uint64_t fixed(int width);
  // JFR's long; int, short and char are the same varint, truncated (RecordingInput).
  std::int64_t i64() { return static_cast<std::int64_t>(varint()); }
  std::int32_t i32() { return static_cast<std::int32_t>(varint()); }
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
  const ChunkPlace& place_;
};

// Calls f(type_id, next) for each event in [begin, end) of the chunk with the cursor just after
// the event's type id; `next` is where the following event starts. An event starts with its
// size (counting the size itself) and its type id (ChunkParser).
template <class F>
void for_each_event(Cursor& in, std::size_t begin, std::size_t end, F&& f) {
  for (std::size_t at = begin; at < end;) {
    in.seek(at);
    const std::int64_t size = in.i32();
    if (size <= 0 || static_cast<std::uint64_t>(size) > end - at)
      in.fail_at(at, "event of " + std::to_string(size) + " bytes does not fit in the chunk");
    const std::size_t next = at + static_cast<std::size_t>(size);
    f(in.i64(), next);
    at = next;
  }
}

}  // namespace bn::calltree::jfr
