#pragma once
// Varint codec of the native profile format (docs/profile-format.md, "Primitive encodings"):
// unsigned LEB128 varints, zigzag for signed values, varint-length UTF-8 strings. Internal to
// bn_calltree.

#include <cstddef>
#include <cstdint>
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

 private:
  std::vector<std::byte> bytes_;
};

// Reads encoded values from one chunk's decompressed payload. Every failure throws bn::Error
// "<context>, payload byte <offset>: <what>", so messages name the file, chunk and byte.
class ByteSource {
 public:
  ByteSource(std::span<const std::byte> bytes, std::string context) : bytes_(bytes), context_(std::move(context)) {}

  // Inline while ten bytes (a whole varint) remain, so no byte needs a bounds check: decoding the
  // node and cost columns is most of a load. The tenth byte, the end of the payload and errors
  // take the out-of-line path.
  std::uint64_t varint(What what) {
    if (bytes_.size() - pos_ >= 10) {
      const std::byte* p = bytes_.data() + pos_;
      std::uint64_t v = 0;
      for (unsigned i = 0; i < 9; ++i) {
        const auto b = std::to_integer<std::uint64_t>(p[i]);
        v |= (b & 0x7f) << (7 * i);
        if (b < 0x80) {
          pos_ += i + 1;
          return v;
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
