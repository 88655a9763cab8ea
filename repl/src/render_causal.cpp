#include "render_causal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "bn/repl/elide.h"
#include "bn/search/text.h"

namespace bn::repl {
namespace {

// Columns besides the target's in the ranked list: "  12  " rank, " 31.2%" cost, the estimate
// with its interval, experiments.
constexpr std::size_t kListColumns = 50;
constexpr std::size_t kMinTargetColumns = 24;  // fit_path's least
constexpr std::size_t kChartColumns = 20;      // the widest bar of a curve's chart

std::string safe(std::string_view s) { return search::terminal_safe(s); }

std::string percent(double fraction, bool sign) {
  char text[32];
  std::snprintf(text, sizeof text, sign ? "%+.1f%%" : "%.1f%%", 100 * fraction);
  return text;
}

// "+24.0% [+20.1%, +28.3%]", "+24.0%" without an interval, "n/a" without an estimate.
std::string estimate_text(const search::CausalEstimate& e) {
  if (!e.speedup) return "n/a";
  std::string text = percent(*e.speedup, true);
  if (e.low && e.high) text += " [" + percent(*e.low, true) + ", " + percent(*e.high, true) + "]";
  return text;
}

std::string pad(const std::string& s, std::size_t width, bool left) {
  const std::size_t used = columns(s);
  if (used >= width) return s;
  return left ? std::string(width - used, ' ') + s : s + std::string(width - used, ' ');
}

// A label by its name; a sequence as a path in at most `width` columns (0: no limit).
std::string target_text(const search::CausalTargetLine& t, std::size_t width) {
  if (t.is_label) return safe(t.name);
  std::vector<std::string> frames;
  for (const std::string& f : t.summaries.front()) frames.push_back(safe(f));
  if (width == 0) {
    std::string text;
    for (const std::string& f : frames) text += (text.empty() ? "" : ";") + f;
    return "[" + text + "]";
  }
  return fit_path(frames, width);
}

std::string flag_names(const search::CausalTargetLine& t) {
  std::string text;
  for (const search::CausalFlag& f : t.flags) text += (text.empty() ? "" : ", ") + f.name;
  return text;
}

void header(const search::CausalReport& r, const RenderContext& c, std::ostream& out) {
  out << wrap(safe(search::causal_about(r, "`causal --progress NAME`")), c.width) << "\n";
  for (const std::string& note : r.notes) out << wrap("note: " + safe(note), c.width) << "\n";
}

// Each flag shown, once, with what it means.
void legend(const std::vector<const search::CausalTargetLine*>& shown, const RenderContext& c, std::ostream& out) {
  std::set<std::string> said;
  for (const search::CausalTargetLine* t : shown)
    for (const search::CausalFlag& f : t->flags)
      if (said.insert(f.name).second) out << wrap(f.name + ": " + f.explanation, c.width) << "\n";
}

void ranked(const search::CausalReport& r, const RenderContext& c, std::ostream& out) {
  const std::size_t target_width =
      c.width == 0 ? 0 : std::max(kMinTargetColumns, c.width - std::min(c.width, kListColumns));
  std::vector<std::vector<std::string>> table{{"#", "target", "cost", "if 50% faster", "exp"}};
  for (std::size_t i = 0; i < r.targets.size(); ++i) {
    const search::CausalTargetLine& t = r.targets[i];
    table.push_back({std::to_string(i + 1), target_text(t, target_width), percent(t.cost_share, false),
                     estimate_text(t.summary), std::to_string(t.summary.experiments)});
  }
  std::vector<std::size_t> width(table.front().size(), 0);
  for (const auto& cells : table)
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], columns(cells[i]));
  std::vector<const search::CausalTargetLine*> shown;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const auto& cells = table[row];
    out << "  " << pad(cells[0], width[0], true) << "  " << pad(cells[1], width[1], false) << "  "
        << pad(cells[2], width[2], true) << "  " << pad(cells[3], width[3], false) << "  "
        << pad(cells[4], width[4], true) << "\n";
    if (row == 0 || r.targets[row - 1].flags.empty()) continue;
    shown.push_back(&r.targets[row - 1]);
    out << wrap(std::string(width[0] + 4, ' ') + "flags: " + flag_names(r.targets[row - 1]), c.width) << "\n";
  }
  legend(shown, c, out);
  out << "`causal N` shows target N's curve: the program's speedup at each virtual speedup\n";
}

// A bar of the program speedup, `scale` columns for the largest magnitude: '#' for faster, '-'
// for slower.
std::string bar(const search::CausalEstimate& e, double largest) {
  if (!e.speedup || largest == 0) return "";
  const auto n = static_cast<std::size_t>(std::lround(std::abs(*e.speedup) / largest * kChartColumns));
  return "|" + std::string(n, *e.speedup < 0 ? '-' : '#');
}

void curve(const search::CausalReport& r, std::size_t index, const RenderContext& c, std::ostream& out) {
  const search::CausalTargetLine& t = r.targets[index];
  out << wrap("target " + std::to_string(index + 1) + ": " + target_text(t, 0) +
                  (t.is_label ? " (label, " + search::counted(t.summaries.size(), "summary", "summaries") + ")" : "") +
                  ", cost " + percent(t.cost_share, false) + ", if 50% faster " + estimate_text(t.summary),
              c.width)
      << "\n";
  double largest = 0;
  for (const auto& p : t.curve)
    if (p.estimate.speedup) largest = std::max(largest, std::abs(*p.estimate.speedup));
  std::vector<std::vector<std::string>> table{
      {"speedup", r.at_latency_point() ? "latency" : "program", "interval", "exp", ""}};
  for (const auto& p : t.curve) {
    const search::CausalEstimate& e = p.estimate;
    table.push_back({std::to_string(p.speedup) + "%", e.speedup ? percent(*e.speedup, true) : "n/a",
                     e.low && e.high ? "[" + percent(*e.low, true) + ", " + percent(*e.high, true) + "]" : "",
                     std::to_string(e.experiments), bar(e, largest)});
  }
  std::vector<std::size_t> width(table.front().size(), 0);
  for (const auto& cells : table)
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], columns(cells[i]));
  for (const auto& cells : table) {
    std::string line = "  " + pad(cells[0], width[0], true) + "  " + pad(cells[1], width[1], true) + "  " +
                       pad(cells[2], width[2], false) + "  " + pad(cells[3], width[3], true);
    if (!cells[4].empty()) line += "  " + cells[4];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  if (!t.flags.empty()) out << wrap("flags: " + flag_names(t), c.width) << "\n";
  legend({&t}, c, out);
}

}  // namespace

void render_causal(const CausalOutput& o, const RenderContext& c, std::ostream& out) {
  header(o.report, c, out);
  if (o.target)
    curve(o.report, *o.target, c, out);
  else
    ranked(o.report, c, out);
}

}  // namespace bn::repl
