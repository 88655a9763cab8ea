#include "bn/calltree/jvm_utf8.h"

#include <cstdint>

#include "byte_codec.h"

namespace bn::calltree {
namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

unsigned byte_at(std::string_view s, std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; }

// The 3-byte encoding of a surrogate in [lo, hi] at s[i] (ED, then A0-AF for high or B0-BF for
// low surrogates), returning its 10 payload bits, or -1.
int surrogate_bits(std::string_view s, std::size_t i, unsigned lo, unsigned hi) {
  const unsigned b1 = byte_at(s, i + 1), b2 = byte_at(s, i + 2);
  if (byte_at(s, i) != 0xed || b1 < lo || b1 > hi || (b2 & 0xc0) != 0x80) return -1;
  return static_cast<int>(((b1 & 0x0fu) << 6) | (b2 & 0x3fu));
}

void append_code_point(std::string& out, std::uint32_t cp) {  // cp in [0x10000, 0x10ffff]
  out += static_cast<char>(0xf0 | (cp >> 18));
  out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
  out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
  out += static_cast<char>(0x80 | (cp & 0x3f));
}

}  // namespace

std::string utf8_from_modified_utf8(std::string_view modified) {
  std::string out;
  out.reserve(modified.size());
  for (std::size_t i = 0; i < modified.size();) {
    if (byte_at(modified, i) == 0xc0 && byte_at(modified, i + 1) == 0x80) {
      out += '\0';
      i += 2;
      continue;
    }
    const int high = surrogate_bits(modified, i, 0xa0, 0xaf);
    const int low = high < 0 ? -1 : surrogate_bits(modified, i + 3, 0xb0, 0xbf);
    if (low >= 0) {
      append_code_point(out, 0x10000 + ((static_cast<std::uint32_t>(high) << 10) | static_cast<std::uint32_t>(low)));
      i += 6;
      continue;
    }
    const std::size_t len = utf8_sequence_length(modified, i);
    if (len == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(modified.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace bn::calltree
