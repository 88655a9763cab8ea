#include "bn/iface/name_fit.h"

#include <algorithm>
#include <vector>

namespace bn::iface {
namespace {

constexpr std::string_view kCut = "…";  // one column

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The byte offset after the first `n` code points of `s`.
std::size_t after_code_points(std::string_view s, std::size_t n) {
  std::size_t i = 0;
  for (; i < s.size() && n > 0; --n)
    for (++i; i < s.size() && continuation(s[i]); ++i) {
    }
  return i;
}

bool letter_or_digit(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || continuation(c) ||
         (static_cast<unsigned char>(c) & 0x80) != 0;
}

// A package shortened to what comes before its first letter and that letter: "apache" → "a",
// "@java" → "@j".
std::string initial(std::string_view part) {
  std::size_t i = 0;
  while (i < part.size() && !letter_or_digit(part[i])) ++i;
  return std::string(part.substr(0, after_code_points(part, std::min(i + 1, columns(part)))));
}

std::string joined(const std::vector<std::string>& parts, std::size_t from, std::string_view rest) {
  std::string out;
  for (std::size_t i = from; i < parts.size(); ++i) out += (i == from ? "" : ".") + parts[i];
  return out + std::string(rest);
}

}  // namespace

std::size_t columns(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !continuation(c); }));
}

std::string elide_middle(std::string_view s, std::size_t width) {
  width = std::max(width, kMinNameColumns);
  const std::size_t total = columns(s);
  if (total <= width) return std::string(s);
  const std::size_t keep = width - columns(kCut);
  const std::size_t head = (keep + 1) / 2, tail = keep - head;
  return std::string(s.substr(0, after_code_points(s, head))) + std::string(kCut) +
         std::string(s.substr(after_code_points(s, total - tail)));
}

std::string elide_name(std::string_view name, std::size_t width, std::size_t kept) {
  width = std::max(width, kMinNameColumns);
  if (columns(name) <= width) return std::string(name);
  // The dotted parts before any signature, and the signature itself.
  const std::size_t paren = std::min(name.find('('), name.size());
  const std::string_view rest = name.substr(paren);
  std::vector<std::string> parts;
  for (std::string_view dotted = name.substr(0, paren);;) {
    const std::size_t dot = dotted.find('.');
    parts.emplace_back(dotted.substr(0, dot));
    if (dot == std::string_view::npos) break;
    dotted.remove_prefix(dot + 1);
  }
  const std::size_t packages = parts.size() > kept ? parts.size() - kept : 0;
  for (std::size_t i = 0; i < packages; ++i) {
    parts[i] = initial(parts[i]);
    if (std::string shorter = joined(parts, 0, rest); columns(shorter) <= width) return shorter;
  }
  if (packages > 0)
    if (std::string tail = std::string(kCut) + joined(parts, packages, rest); columns(tail) <= width) return tail;
  return elide_middle(joined(parts, packages, rest), width);
}

}  // namespace bn::iface
