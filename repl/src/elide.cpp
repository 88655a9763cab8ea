#include "bn/repl/elide.h"

#include <algorithm>

namespace bn::repl {
namespace {

// A path column is never made narrower than this: on a line crowded by numbers the path runs
// over rather than shrink to nothing.
constexpr std::size_t kMinPath = 24;
// Each of the two kept ends of a path is shortened to no fewer columns than this.
constexpr std::size_t kMinEnd = 12;

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

std::string fit_path(const std::vector<std::string>& frames, std::size_t width) {
  width = std::max(width, kMinPath);
  const std::size_t n = frames.size();
  if (n == 0) return "[]";
  std::string best = joined(frames, n, 0);
  if (columns(best) <= width) return best;
  if (n == 1) return "[" + iface::elide_name(frames[0], width - 2) + "]";
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
  // Even the outermost and innermost frames alone are too wide: shorten their names, the
  // innermost (the method the summary is about) last.
  const std::size_t marker = columns(joined(frames, 1, 1)) - columns(frames.front()) - columns(frames.back());
  const std::size_t names = width - std::min(width, marker);
  // Too narrow for both: the innermost alone, the method the summary is about.
  if (names < 2 * kMinEnd) {
    const std::size_t count = columns(joined(frames, 0, 1)) - columns(frames.back());
    return "[<" + std::to_string(n - 1) + (n == 2 ? " frame>;" : " frames>;") +
           iface::elide_name(frames.back(), width - std::min(width, count)) + "]";
  }
  const std::size_t inner_room = std::max(names - std::min(names, kMinEnd), kMinEnd);
  const std::string innermost = iface::elide_name(frames.back(), inner_room);
  const std::string outermost =
      iface::elide_name(frames.front(), std::max(names - std::min(names, columns(innermost)), kMinEnd));
  std::string out = "[" + outermost + ";";
  if (n > 2) out += "<" + std::to_string(n - 2) + (n - 2 == 1 ? " frame>;" : " frames>;");
  return out + innermost + "]";
}

std::string wrap(std::string_view text, std::size_t width, std::size_t hang) {
  if (width == 0 || columns(text) <= width) return std::string(text);
  const std::size_t lead = std::min(text.find_first_not_of(' '), text.size());
  const std::string indent(lead + hang, ' ');
  std::string out(text.substr(0, lead));
  std::size_t line = lead;
  // Words keep the blanks between them (a help's column), but a line never starts with them.
  for (std::size_t i = lead; i < text.size();) {
    const std::size_t start = std::min(text.find_first_not_of(' ', i), text.size());
    if (start == text.size()) break;
    const std::size_t end = std::min(text.find(' ', start), text.size());
    const std::string_view gap = text.substr(i, start - i), word = text.substr(start, end - start);
    if (line > columns(indent) && line + gap.size() + columns(word) > width) {
      out += "\n" + indent;
      line = indent.size();
    } else {
      out += gap;
      line += gap.size();
    }
    out += word;
    line += columns(word);
    i = end;
  }
  return out;
}

}  // namespace bn::repl
