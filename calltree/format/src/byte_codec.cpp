#include "byte_codec.h"

#include "bn/iface/error.h"

namespace bn::calltree {

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return 1;
  std::size_t len;
  std::uint32_t cp;
  if (b >= 0xc2 && b <= 0xdf) {
    len = 2;
    cp = b & 0x1fu;
  } else if (b >= 0xe0 && b <= 0xef) {
    len = 3;
    cp = b & 0x0fu;
  } else if (b >= 0xf0 && b <= 0xf4) {
    len = 4;
    cp = b & 0x07u;
  } else {
    return 0;  // a continuation byte, or a lead byte only overlong or too-large forms use
  }
  if (s.size() - i < len) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3fu);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;
  return len;
}

bool is_valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
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

std::uint64_t ByteSource::varint(What what) {
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
