#include "bn/calltree/utf8.h"

#include <cstdint>
#include <cstring>

namespace bn::calltree {

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
    // ASCII eight bytes at a time: method names are mostly ASCII, and a profile's 156k names (6 MB
    // at 10M nodes) are all checked as it is read.
    std::uint64_t word;
    for (; s.size() - i >= sizeof word; i += sizeof word) {
      std::memcpy(&word, s.data() + i, sizeof word);
      if ((word & 0x8080808080808080) != 0) break;
    }
    if (i == s.size()) break;
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string repaired_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence_length(s, i);
    if (len == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace bn::calltree
