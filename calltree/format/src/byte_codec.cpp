#include "byte_codec.h"

#include "bn/base/error.h"

namespace bn::calltree {

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

void ByteSink::varint(std::uint64_t v) {
  while (v >= 0x80) {
    bytes_.push_back(static_cast<std::byte>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  bytes_.push_back(static_cast<std::byte>(v));
}

void ByteSink::string(std::string_view s) {
  varint(s.size());
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  bytes_.insert(bytes_.end(), p, p + s.size());
}

void ByteSource::fail(const std::string& what, std::size_t at) const {
  throw Error(context_ + ", payload byte " + std::to_string(at) + ": " + what);
}

std::uint64_t ByteSource::long_varint(What what) {
  const std::size_t start = pos_;
  std::uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos_ == bytes_.size()) fail("payload ends inside the " + what.str(), start);
    const auto b = std::to_integer<std::uint64_t>(bytes_[pos_++]);
    // The tenth byte holds bit 63 only; anything more does not fit in 64 bits.
    if (shift == 63 && b > 1) fail("the " + what.str() + " does not fit in 64 bits", start);
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

std::optional<std::size_t> ByteSource::offset_after_varints(std::size_t count) const {
  std::size_t pos = pos_;
  if (count == 0) return pos;
  const std::byte* bytes = bytes_.data();
  for (; bytes_.size() - pos >= 8; pos += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + pos, sizeof word);
    std::uint64_t ends = ~word & 0x8080808080808080;  // in memory order on a little-endian machine
    if constexpr (std::endian::native == std::endian::big) ends = __builtin_bswap64(ends);
    // The high bits summed by one multiply into the top byte (std::popcount is a library call
    // without -mpopcnt, the project's generic x86-64 target).
    const auto in_word = static_cast<std::size_t>(((ends >> 7) * 0x0101010101010101) >> 56);
    if (in_word < count) {
      count -= in_word;
      continue;
    }
    for (; count > 1; --count) ends &= ends - 1;  // drop the ends before the one sought
    return pos + static_cast<std::size_t>(std::countr_zero(ends)) / 8 + 1;
  }
  for (; pos < bytes_.size(); ++pos)
    if (std::to_integer<unsigned>(bytes[pos]) < 0x80 && --count == 0) return pos + 1;
  return std::nullopt;
}

std::string_view ByteSource::string(What what) {
  const std::size_t start = pos_;
  const std::uint64_t len = varint(what);
  if (len > remaining())
    fail("the " + what.str() + " is " + std::to_string(len) + " bytes long, but only " + std::to_string(remaining()) +
             " bytes remain",
         start);
  const std::string_view s(reinterpret_cast<const char*>(bytes_.data() + pos_), len);
  if (!is_valid_utf8(s)) fail("the " + what.str() + " is not valid UTF-8", start);
  pos_ += len;
  return s;
}

std::uint32_t ByteSource::count(What what, std::size_t min_item_bytes) {
  const std::size_t start = pos_;
  const std::uint64_t n = varint(what);
  if (n > remaining() / min_item_bytes)
    fail("the " + what.str() + " " + std::to_string(n) + " needs at least " + std::to_string(min_item_bytes) +
             " bytes each, but only " + std::to_string(remaining()) + " bytes remain",
         start);
  return static_cast<std::uint32_t>(n);
}

}  // namespace bn::calltree
