#pragma once
// Varint codec of the native profile format (docs/profile-format.md, "Primitive encodings"):
// unsigned LEB128 varints, zigzag for signed values, varint-length UTF-8 strings. Internal to
// bn_calltree.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/calltree/utf8.h"

namespace bn::calltree {

inline std::uint64_t zigzag_encode(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t zigzag_decode(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}
// Bytes of the varint encoding of v (1 to 10).
std::size_t varint_size(std::uint64_t v);

// Names a value in error messages ("parent distance of node 17"). Formatted only on failure:
// readers name millions of values and fail at most once.
class What {
 public:
  // Implicit so plain names read naturally: in.varint("node count").
  What(const char* text) : text_(text) {}       // NOLINT
  What(std::string_view text) : text_(text) {}  // NOLINT
  What(std::string_view text, std::uint64_t index) : text_(text), index_(index), indexed_(true) {}
  std::string str() const { return indexed_ ? std::string(text_) + " " + std::to_string(index_) : std::string(text_); }

 private:
  std::string_view text_;
  std::uint64_t index_ = 0;
  bool indexed_ = false;
};

// Appends encoded values to a growing byte buffer.
class ByteSink {
 public:
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v) { varint(zigzag_encode(v)); }
  void string(std::string_view s);  // varint length, then the bytes
  void bytes(std::span<const std::byte> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }

  std::size_t size() const { return bytes_.size(); }
  const std::vector<std::byte>& data() const { return bytes_; }
  std::vector<std::byte> take() { return std::move(bytes_); }
  void clear() { bytes_.clear(); }  // empty, its memory kept

 private:
  std::vector<std::byte> bytes_;
};

// The low seven bits of each byte of `word` (least significant byte first) packed together, as
// a varint's payload: 7-bit groups merged pairwise into 14-, 28- and 56-bit groups.
constexpr std::uint64_t gather_7bit_groups(std::uint64_t word) {
  word &= 0x7f7f7f7f7f7f7f7f;
  word = (word & 0x007f007f007f007f) | ((word & 0x7f007f007f007f00) >> 1);
  word = (word & 0x00003fff00003fff) | ((word & 0x3fff00003fff0000) >> 2);
  return (word & 0x000000000fffffff) | ((word & 0x0fffffff00000000) >> 4);
}

// Reads encoded values from one chunk's decompressed payload. Every failure throws bn::Error
// "<context>, payload byte <offset>: <what>", so messages name the file, chunk and byte.
class ByteSource {
 public:
  ByteSource(std::span<const std::byte> bytes, std::string context) : bytes_(bytes), context_(std::move(context)) {}

  // Inline while ten bytes (a whole varint) remain, so no byte needs a bounds check: decoding the
  // node and cost columns is most of a load. A one-byte varint (most parent distances, node
  // deltas and costs) takes one predictable branch; a longer one of up to eight bytes is decoded
  // from one 64-bit load without a branch per byte (method ids take one to three bytes in no
  // pattern a branch predictor learns: on a 10M-node file's NODE chunk this decodes in 0.7 times
  // the time of a byte loop, docs/performance.md "Opening a profile"). Nine-byte varints, the
  // tenth byte, the end of the payload and errors take the out-of-line path.
  std::uint64_t varint(What what) {
    if (bytes_.size() - pos_ >= 10) {
      const std::byte* p = bytes_.data() + pos_;
      if (const auto first = std::to_integer<std::uint64_t>(p[0]); first < 0x80) {
        ++pos_;
        return first;
      }
      if constexpr (std::endian::native == std::endian::little) {
        std::uint64_t word;
        std::memcpy(&word, p, sizeof word);
        // The high bit of each byte says another follows; the first clear one ends the varint.
        const std::uint64_t ends = ~word & 0x8080808080808080;
        if (ends != 0) {
          const unsigned length = static_cast<unsigned>(std::countr_zero(ends)) / 8 + 1;
          pos_ += length;
          return gather_7bit_groups(word & (~std::uint64_t{0} >> (64 - 8 * length)));
        }
      }
    }
    return long_varint(what);
  }
  std::int64_t zigzag(What what) { return zigzag_decode(varint(what)); }
  // A varint-length string that must be valid UTF-8; the view points into the payload.
  std::string_view string(What what);
  // An item count, refused if `count * min_item_bytes` exceeds the bytes left: a count can never
  // make the reader allocate more than the payload proves present.
  std::uint32_t count(What what, std::size_t min_item_bytes);

  // The offset just past the next `count` varints, found by their last bytes (a varint ends at
  // its first byte below 0x80) without decoding them, eight bytes at a time; nullopt if the payload
  // holds fewer ends. Where the second of two columns starts, so that both may be decoded at once;
  // decoding the first column checks that its varints are well formed.
  std::optional<std::size_t> offset_after_varints(std::size_t count) const;
  // Reading goes on at `offset` (at most the payload's size).
  void seek(std::size_t offset) { pos_ = offset; }

  std::size_t offset() const { return pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  // Throws "<context>, payload byte <at>: <what>".
  [[noreturn]] void fail(const std::string& what, std::size_t at) const;
  [[noreturn]] void fail(const std::string& what) const { fail(what, pos_); }

 private:
  std::uint64_t long_varint(What what);

  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
  std::string context_;
};

}  // namespace bn::calltree
