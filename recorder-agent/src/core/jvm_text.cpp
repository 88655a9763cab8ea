#include "core/jvm_text.h"

#include <cstdint>

namespace bn::agent {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

void put(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Decodes one 1- to 3-byte sequence at s[i]; returns the code point and advances i, or
// kReplacement (advancing one byte) if the bytes are malformed.
char32_t decode(std::string_view s, std::size_t& i) {
  const auto b = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const auto cont = [&](std::size_t k) { return k < s.size() && (b(k) & 0xC0) == 0x80; };
  const std::uint8_t c = b(i);
  if (c < 0x80) {
    ++i;
    return c == 0 ? kReplacement : c;
  }
  if ((c & 0xE0) == 0xC0 && cont(i + 1)) {
    const char32_t v = (char32_t{c} & 0x1F) << 6 | (b(i + 1) & 0x3F);
    i += 2;
    return v < 0x80 ? kReplacement : v;  // C0 80 is the JVM's NUL
  }
  if ((c & 0xF0) == 0xE0 && cont(i + 1) && cont(i + 2)) {
    const char32_t v = (char32_t{c} & 0x0F) << 12 | (b(i + 1) & 0x3F) << 6 | (b(i + 2) & 0x3F);
    i += 3;
    return v < 0x800 ? kReplacement : v;
  }
  ++i;
  return kReplacement;
}

}  // namespace

std::string standard_utf8(std::string_view modified) {
  std::string out;
  out.reserve(modified.size());
  for (std::size_t i = 0; i < modified.size();) {
    char32_t c = decode(modified, i);
    if (c >= 0xD800 && c <= 0xDBFF) {  // a high surrogate: pair it with the low one that follows
      std::size_t j = i;
      const char32_t low = j < modified.size() ? decode(modified, j) : 0;
      if (low >= 0xDC00 && low <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
        i = j;
      } else {
        c = kReplacement;
      }
    } else if (c >= 0xDC00 && c <= 0xDFFF) {
      c = kReplacement;
    }
    put(out, c);
  }
  return out;
}

}  // namespace bn::agent
