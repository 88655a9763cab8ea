#include "bn/repl/elide.h"

#include <algorithm>

namespace bn::repl {
namespace {

constexpr std::string_view kCut = "...";
constexpr std::size_t kMinName = 5;
// A path column is never made narrower than this: on a line crowded by numbers the path runs
// over rather than shrink to nothing.
constexpr std::size_t kMinPath = 40;
// Names are what the user reads: one alone is cut only past this many columns, and each of the
// two kept ends of a path not below kMinEnd.
constexpr std::size_t kMinAlone = 60;
constexpr std::size_t kMinEnd = 24;

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The byte offset after the first `n` code points of `s`.
std::size_t after_code_points(std::string_view s, std::size_t n) {
  std::size_t i = 0;
  for (; i < s.size() && n > 0; --n)
    for (++i; i < s.size() && continuation(s[i]); ++i) {
    }
  return i;
}

std::string joined(const std::vector<std::string>& frames, std::size_t first, std::size_t last) {
  // frames[0, first) and frames[size - last, size), with the count of those between.
  std::string out = "[";
  for (std::size_t i = 0; i < first; ++i) out += frames[i] + ";";
  const std::size_t left_out = frames.size() - first - last;
  if (left_out > 0) out += "<" + std::to_string(left_out) + (left_out == 1 ? " frame>;" : " frames>;");
  for (std::size_t i = frames.size() - last; i < frames.size(); ++i) out += frames[i] + ";";
  out.back() = ']';
  return out;
}

}  // namespace

std::size_t columns(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !continuation(c); }));
}

std::string elide_middle(std::string_view s, std::size_t width) {
  width = std::max(width, kMinName);
  const std::size_t total = columns(s);
  if (total <= width) return std::string(s);
  const std::size_t keep = width - kCut.size();
  const std::size_t head = (keep + 1) / 2, tail = keep - head;
  return std::string(s.substr(0, after_code_points(s, head))) + std::string(kCut) +
         std::string(s.substr(after_code_points(s, total - tail)));
}

std::string fit_path(const std::vector<std::string>& frames, std::size_t width) {
  width = std::max(width, kMinPath);
  const std::size_t n = frames.size();
  if (n == 0) return "[]";
  std::string best = joined(frames, n, 0);
  if (columns(best) <= width) return best;
  if (n == 1) return "[" + elide_middle(frames[0], std::max(width - 2, kMinAlone)) + "]";
  // Grow from the outermost and innermost frame, innermost side first, while it fits.
  std::size_t first = 1, last = 1;
  best = joined(frames, first, last);
  for (bool grew = true; grew && first + last < n;) {
    grew = false;
    for (const bool inner : {true, false}) {
      if (first + last == n) break;
      const std::string wider = joined(frames, first + (inner ? 0 : 1), last + (inner ? 1 : 0));
      if (columns(wider) > width) continue;
      best = wider;
      (inner ? last : first) += 1;
      grew = true;
    }
  }
  if (columns(best) <= width) return best;
  // Even the outermost and innermost frames alone are too wide: cut their names, the innermost
  // (the method the summary is about) last.
  const std::size_t marker = columns(joined(frames, 1, 1)) - columns(frames.front()) - columns(frames.back());
  const std::size_t names = width - std::min(width, marker);
  const std::size_t outer = std::max(names - std::min(names, columns(frames.back())), kMinEnd);
  const std::string outermost = elide_middle(frames.front(), outer);
  const std::string innermost =
      elide_middle(frames.back(), std::max(names - std::min(names, columns(outermost)), kMinEnd));
  const std::vector<std::string> cut{outermost, innermost};
  std::string out = "[" + cut[0] + ";";
  if (n > 2) out += "<" + std::to_string(n - 2) + (n - 2 == 1 ? " frame>;" : " frames>;");
  return out + cut[1] + "]";
}

}  // namespace bn::repl
