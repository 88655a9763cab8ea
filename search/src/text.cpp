#include "bn/search/text.h"

namespace bn::search {
namespace {

bool is_line_end(char c) { return c == '\r' || c == '\n'; }

char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

void append_hex(std::string& out, std::string_view prefix, unsigned value, int digits) {
  constexpr std::string_view kHex = "0123456789abcdef";
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xf];
}

// The code point of the UTF-8 sequence at the start of `s` and its length, or length 0 when it
// is not one (a stray continuation byte, a cut sequence, an overlong form, a surrogate).
std::pair<char32_t, std::size_t> decode_utf8(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned lead = byte(0);
  const std::size_t length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (length == 0 || lead > 0xf4 || s.size() < length) return {0, 0};
  char32_t cp = lead & (0x7fu >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return {0, 0};
    cp = (cp << 6) | (byte(i) & 0x3f);
  }
  constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[length] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return {0, 0};
  return {cp, length};
}

bool unsafe_code_point(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (is_blank(s.front()) || is_line_end(s.front()))) s.remove_prefix(1);
  while (!s.empty() && (is_blank(s.back()) || is_line_end(s.back()))) s.remove_suffix(1);
  return s;
}

std::pair<std::string_view, std::string_view> split_word(std::string_view s) {
  s = trim(s);
  std::size_t end = 0;
  while (end < s.size() && !is_blank(s[end])) ++end;
  return {s.substr(0, end), trim(s.substr(end))};
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  for (std::string_view rest = s;;) {
    const auto [word, after] = split_word(rest);
    if (word.empty()) return words;
    words.push_back(word);
    rest = after;
  }
}

std::string_view unquote(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = fold(c);
  return out;
}

bool equals_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (fold(a[i]) != fold(b[i])) return false;
  return true;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equals_nocase(s.substr(0, prefix.size()), prefix);
}

std::string counted(std::size_t n, std::string_view singular, std::string_view plural) {
  std::string out = std::to_string(n) + " ";
  if (n == 1) return out.append(singular);
  if (!plural.empty()) return out.append(plural);
  return out.append(singular) + "s";
}

std::string terminal_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0x20 && b < 0x7f) {
      out += s[i++];
      continue;
    }
    const auto [cp, length] = b < 0x80 ? std::pair<char32_t, std::size_t>{0, 0} : decode_utf8(s.substr(i));
    if (length == 0) {
      append_hex(out, "\\x", b, 2);
      ++i;
    } else if (unsafe_code_point(cp)) {
      append_hex(out, "\\u", static_cast<unsigned>(cp), 4);
      i += length;
    } else {
      out.append(s.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace bn::search
