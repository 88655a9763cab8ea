#include "causal_section.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <string_view>

#include "causal_chart.h"
#include "xml_text.h"

namespace bn::flame {
namespace {

constexpr std::string_view kHeading = "What would speeding it up gain?";
// How to read a chart, a line each (the SVG has no wrapping).
constexpr std::array<std::string_view, 3> kReading = {
    "One chart per target of the causal experiments, the largest gain first, as `causal` ranks them.",
    "x: how much faster the target was made (virtual speedup); y: how much faster the program got, with its 95% "
    "interval.",
    "Dashed: what its cost share promises (s% faster saves s × cost), a sampling profile's estimate."};

constexpr int kLine = 16;  // a line of text in the SVG
// The heading, `about` and the reading above the charts.
constexpr int kHeader = 10 + static_cast<int>(2 + kReading.size()) * kLine;

int columns_in(int width, int left) { return std::max(1, (width - 2 * left + kChartGap) / (kChartWidth + kChartGap)); }

}  // namespace

std::string causal_section_html(const CausalCharts& charts) {
  if (charts.empty()) return "";
  std::ostringstream out;
  out << "\n<section id=\"causal\">\n<h2>" << kHeading << "</h2>\n<p class=\"causal-about\">" << xml_text(charts.about)
      << "</p>\n<p class=\"causal-reading\">";
  for (const std::string_view line : kReading) out << xml_text(line) << "<br>\n";
  out << "Hover over a chart for its numbers in full and what its flags mean; click it to highlight its target's "
         "frames in the flame graph.</p>\n<div class=\"causal-charts\">\n";
  for (std::size_t i = 0; i < charts.targets.size(); ++i)
    write_causal_chart(out, charts.targets[i], i + 1, std::nullopt);
  out << "</div>\n</section>";
  return out.str();
}

int causal_svg_height(const CausalCharts& charts, int width, int left) {
  if (charts.empty()) return 0;
  const auto per_row = static_cast<std::size_t>(columns_in(width, left));
  const auto rows = static_cast<int>((charts.targets.size() + per_row - 1) / per_row);
  return kHeader + rows * (kChartHeight + kChartGap);
}

void write_causal_svg(std::ostream& out, const CausalCharts& charts, int top, int width, int left) {
  if (charts.empty()) return;
  out << "<g class=\"causal\">\n<text x=\"" << left << "\" y=\"" << top + 14 << "\" font-size=\"14\">" << kHeading
      << "</text>\n";
  int y = top + 14 + kLine;
  out << "<text x=\"" << left << "\" y=\"" << y << "\">" << xml_text(charts.about) << "</text>\n";
  for (const std::string_view line : kReading) {
    y += kLine;
    out << "<text x=\"" << left << "\" y=\"" << y << "\" fill=\"#555\">" << xml_text(line) << "</text>\n";
  }
  const int per_row = columns_in(width, left);
  for (std::size_t i = 0; i < charts.targets.size(); ++i) {
    const int row = static_cast<int>(i) / per_row, column = static_cast<int>(i) % per_row;
    write_causal_chart(
        out, charts.targets[i], i + 1,
        ChartPosition{left + column * (kChartWidth + kChartGap), top + kHeader + row * (kChartHeight + kChartGap)});
  }
  out << "</g>\n";
}

}  // namespace bn::flame
