// One target's causal chart (causal_chart.h), in a box of kChartWidth × kChartHeight pixels: the
// target and its numbers above the plot, tick labels left of it and below it, its experiments
// and flags under them.

#include "causal_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "bn/iface/name_fit.h"
#include "svg_number.h"
#include "xml_text.h"

namespace bn::flame {
namespace {

constexpr int kPad = 8;
constexpr double kCharWidth = 6.6;  // of 11px monospace, as the flame graph's labels
constexpr int kPlotLeft = 46;       // room for "+100%"
constexpr int kPlotRight = kChartWidth - 12;
constexpr int kPlotTop = 38;
constexpr int kPlotBottom = 150;
// The least range of program speedups a plot spans: a flat curve's noise of a fraction of a
// percent should look flat, not fill the plot.
constexpr double kLeastRange = 0.05;
constexpr std::uint32_t kSpeedupTicks[] = {0, 25, 50, 75, 100};

constexpr const char* kCurveColor = "#1f4e99";
constexpr const char* kCostColor = "#e6550d";
constexpr const char* kFlagColor = "#b00";

// The program speedups (fractions) the plot spans, and its ticks' step.
struct Scale {
  double low = 0;
  double high = 0;
  double step = 0;
  double y(double v) const { return kPlotBottom - (v - low) / (high - low) * (kPlotBottom - kPlotTop); }
};

double x_of(double speedup_percent) { return kPlotLeft + speedup_percent / 100 * (kPlotRight - kPlotLeft); }

// 1, 2, 2.5 or 5 times a power of ten: at most four intervals over `range`.
double tick_step(double range) {
  const double least = range / 4;
  const double power = std::pow(10.0, std::floor(std::log10(least)));
  for (const double m : {1.0, 2.0, 2.5, 5.0})
    if (m * power >= least) return m * power;
  return 10 * power;
}

// Zero, every estimate and interval end, and the cost share's promise at 100%, on whole ticks.
Scale scale_of(const CausalChart& chart) {
  double low = 0, high = std::max(0.0, chart.cost_share);
  for (const CausalPoint& p : chart.points)
    for (const std::optional<double>& v : {p.estimate.speedup, p.estimate.low, p.estimate.high})
      if (v) {
        low = std::min(low, *v);
        high = std::max(high, *v);
      }
  high = std::max(high, low + kLeastRange);
  const double step = tick_step(high - low);
  // A value a rounding error past a tick stays on it rather than adding an empty interval.
  constexpr double kSlack = 1e-9;
  return {std::floor(low / step + kSlack) * step, std::ceil(high / step - kSlack) * step, step};
}

// A tick's percentage with the decimals its step needs: "+10%", "0%", "-2.5%".
std::string tick_text(double fraction, double step) {
  if (std::abs(fraction) < step / 2) return "0%";
  int decimals = 0;
  for (double s = step * 100; decimals < 3 && std::abs(s - std::round(s)) > 1e-6; s *= 10) ++decimals;
  char text[32];
  std::snprintf(text, sizeof text, "%+.*f%%", decimals, 100 * fraction);
  return text;
}

// "+24.0% [+20.1%, +28.3%]", "+24.0%" without an interval, "n/a" without an estimate.
std::string estimate_text(const CausalEstimate& e) {
  if (!e.speedup) return "n/a";
  std::string text = percent_text(*e.speedup, true);
  if (e.low && e.high) text += " [" + percent_text(*e.low, true) + ", " + percent_text(*e.high, true) + "]";
  return text;
}

std::string experiments_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " experiment" : " experiments"); }

// The target as `causal` names it in `width` columns: a label by its name, a sequence in
// brackets, shortened to its innermost call's `Class.method` when it is too long.
std::string target_text(const CausalChart& chart, std::size_t width) {
  if (chart.is_label) return iface::elide_middle(chart.name, width);
  std::string whole = "[" + chart.name + "]";
  if (iface::columns(whole) <= width) return whole;
  const std::size_t last = chart.name.rfind(';');
  const std::string head = last == std::string::npos ? "[" : "[…;";
  const std::string innermost = last == std::string::npos ? chart.name : chart.name.substr(last + 1);
  const std::size_t around = iface::columns(head) + 1;
  return head + iface::elide_name(innermost, width > around ? width - around : 0) + "]";
}

std::size_t experiments_of(const CausalChart& chart) {
  std::size_t n = 0;
  for (const CausalPoint& p : chart.points) n += p.estimate.experiments;
  return n;
}

// What hovering the chart says: every number in full.
std::string chart_title(const CausalChart& chart, std::size_t rank) {
  std::string text = std::to_string(rank) + ". " + (chart.is_label ? chart.name : "[" + chart.name + "]");
  if (chart.is_label) text += " (label)";
  text += "\ncost " + percent_text(chart.cost_share, false) + ", if 50% faster " + estimate_text(chart.summary) + " (" +
          experiments_text(chart.summary.experiments) + ")";
  for (const CausalFlag& f : chart.flags) text += "\n" + f.name + ": " + f.explanation;
  return text + "\n" + experiments_text(experiments_of(chart)) + " in all";
}

std::string point_title(const CausalPoint& p) {
  const CausalEstimate& e = p.estimate;
  return std::to_string(p.speedup) + "% faster: program " + estimate_text(e) + ", " + experiments_text(e.experiments);
}

std::size_t columns_in(int pixels) { return static_cast<std::size_t>(std::max(0.0, pixels / kCharWidth)); }

void text(std::ostream& out, double x, double y, std::string_view content, std::string_view attributes = {}) {
  out << "<text x=\"" << svg_number(x) << "\" y=\"" << svg_number(y) << "\"" << (attributes.empty() ? "" : " ")
      << attributes << ">" << xml_text(content) << "</text>";
}

void line(std::ostream& out, double x1, double y1, double x2, double y2, std::string_view attributes) {
  out << "<line x1=\"" << svg_number(x1) << "\" y1=\"" << svg_number(y1) << "\" x2=\"" << svg_number(x2) << "\" y2=\""
      << svg_number(y2) << "\" " << attributes << "/>";
}

void axes(std::ostream& out, const Scale& scale) {
  out << "<rect x=\"" << kPlotLeft << "\" y=\"" << kPlotTop << "\" width=\"" << kPlotRight - kPlotLeft << "\" height=\""
      << kPlotBottom - kPlotTop << "\" fill=\"none\" stroke=\"#ccc\"/>\n";
  const auto ticks = static_cast<int>(std::lround((scale.high - scale.low) / scale.step));
  for (int k = 0; k <= ticks; ++k) {
    const double v = scale.low + k * scale.step;
    line(out, kPlotLeft, scale.y(v), kPlotRight, scale.y(v), "stroke=\"#eee\"");
    text(out, kPlotLeft - 4, scale.y(v) + 4, tick_text(v, scale.step),
         "class=\"tick-y\" text-anchor=\"end\" data-value=\"" + std::to_string(v) + "\"");
  }
  for (const std::uint32_t s : kSpeedupTicks) {
    line(out, x_of(s), kPlotTop, x_of(s), kPlotBottom, "stroke=\"#eee\"");
    // The ends' labels stay inside the plot's width, clear of the lowest tick's on the left.
    const char* anchor = s == 0 ? "start" : s == 100 ? "end" : "middle";
    if (s % 50 == 0)
      text(out, x_of(s), kPlotBottom + 13, std::to_string(s) + "%",
           std::string("class=\"tick-x\" text-anchor=\"") + anchor + "\" data-value=\"" + std::to_string(s) + "\"");
  }
  out << "\n";
  line(out, kPlotLeft, scale.y(0), kPlotRight, scale.y(0), "class=\"zero\" stroke=\"#888\"");
  out << "\n";
}

// What the cost share promises: s% faster saves s·c of the time.
void cost_line(std::ostream& out, const CausalChart& chart, const Scale& scale) {
  out << "<g class=\"cost\"><title>cost " << percent_text(chart.cost_share, false)
      << ": what a sampling profile promises, the program faster by the virtual speedup times the cost</title>";
  line(out, x_of(0), scale.y(0), x_of(100), scale.y(chart.cost_share),
       std::string("stroke=\"") + kCostColor + "\" stroke-width=\"1.5\" stroke-dasharray=\"5,3\"");
  out << "</g>\n";
}

void curve(std::ostream& out, const CausalChart& chart, const Scale& scale) {
  std::string points;
  for (const CausalPoint& p : chart.points)
    if (p.estimate.speedup)
      points +=
          (points.empty() ? "" : " ") + svg_number(x_of(p.speedup)) + "," + svg_number(scale.y(*p.estimate.speedup));
  out << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"" << kCurveColor
      << "\" stroke-width=\"1.5\"/>\n";
  const std::string stroke = std::string("stroke=\"") + kCurveColor + "\"";
  for (const CausalPoint& p : chart.points) {
    const CausalEstimate& e = p.estimate;
    if (!e.speedup) continue;
    const double x = x_of(p.speedup);
    out << "<g class=\"causal-point\" data-speedup=\"" << p.speedup << "\" data-program=\"" << *e.speedup
        << "\"><title>" << xml_text(point_title(p)) << "</title>";
    if (e.low && e.high) {
      line(out, x, scale.y(*e.low), x, scale.y(*e.high), stroke);
      line(out, x - 3, scale.y(*e.low), x + 3, scale.y(*e.low), stroke);
      line(out, x - 3, scale.y(*e.high), x + 3, scale.y(*e.high), stroke);
    }
    out << "<circle cx=\"" << svg_number(x) << "\" cy=\"" << svg_number(scale.y(*e.speedup)) << "\" r=\"3\" fill=\""
        << kCurveColor << "\"/></g>\n";
  }
}

std::string frames_attribute(const CausalChart& chart) {
  return xml_text(nlohmann::json(chart.frames).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace

std::string percent_text(double fraction, bool sign) {
  char text[32];
  std::snprintf(text, sizeof text, sign ? "%+.1f%%" : "%.1f%%", 100 * fraction);
  return text;
}

void write_causal_chart(std::ostream& out, const CausalChart& chart, std::size_t rank,
                        std::optional<ChartPosition> at) {
  const Scale scale = scale_of(chart);
  out << "<svg class=\"causal-chart\" xmlns=\"http://www.w3.org/2000/svg\"";
  if (at) out << " x=\"" << at->x << "\" y=\"" << at->y << "\"";
  out << " width=\"" << kChartWidth << "\" height=\"" << kChartHeight << "\" viewBox=\"0 0 " << kChartWidth << " "
      << kChartHeight << "\" font-family=\"monospace\" font-size=\"11\" data-rank=\"" << rank << "\"";
  if (!chart.frames.empty()) out << " data-frames=\"" << frames_attribute(chart) << "\"";
  out << ">\n<title>" << xml_text(chart_title(chart, rank)) << "</title>\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  const std::string rank_text = std::to_string(rank) + ". ";
  const std::size_t width = columns_in(kChartWidth - 2 * kPad);
  text(out, kPad, 14, rank_text + target_text(chart, width - rank_text.size()),
       "class=\"target\" font-weight=\"bold\"");
  text(out, kPad, 28,
       "cost " + percent_text(chart.cost_share, false) + ", if 50% faster " +
           (chart.summary.speedup ? percent_text(*chart.summary.speedup, true) : "n/a"));
  out << "\n";
  axes(out, scale);
  cost_line(out, chart, scale);
  curve(out, chart, scale);
  text(out, kPad, kPlotBottom + 29, experiments_text(experiments_of(chart)));
  std::string flags;
  for (const CausalFlag& f : chart.flags) flags += (flags.empty() ? "" : ", ") + f.name;
  if (!flags.empty())
    text(out, kPad, kPlotBottom + 43, iface::elide_middle(flags, width),
         std::string("class=\"flags\" fill=\"") + kFlagColor + "\"");
  out << "\n</svg>\n";
}

}  // namespace bn::flame
