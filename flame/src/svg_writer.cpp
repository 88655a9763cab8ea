// The static SVG: the layout of web/flame.js at its initial zoom, one <g> per frame with a
// <title> (hover) and the same colours (colors.h); a recording's causal charts below the legend
// (causal_section.h).

#include <algorithm>
#include <string>
#include <vector>

#include "bn/flame/writers.h"
#include "bn/iface/name_fit.h"
#include "causal_chart.h"
#include "causal_section.h"
#include "colors.h"
#include "frame_text.h"
#include "svg_number.h"
#include "xml_text.h"

namespace bn::flame {
namespace {

constexpr int kRowHeight = 17;
constexpr int kMargin = 10;
constexpr double kCharWidth = 6.6;  // of 11px monospace

// Drawn width of a frame: a comparison shows both runs, so a path of one run stays visible.
double width_value(const FlamePart& part, std::size_t i) {
  const Amount w = part.comparison() ? iface::abs_amount(part.total[i]) + iface::abs_amount(part.b_total[i])
                                     : iface::abs_amount(part.total[i]);
  return static_cast<double>(w);
}

// x of every frame in root-width units: a child starts where its previous sibling ended.
std::vector<double> layout(const FlamePart& part) {
  std::vector<double> x(part.size(), 0);
  std::vector<double> cursor;  // per depth: where the next child of the frame at depth d starts
  for (std::size_t i = 0; i < part.size(); ++i) {
    const std::uint32_t d = part.depth[i];
    cursor.resize(d + 1);
    x[i] = d == 0 ? 0 : cursor[d - 1];
    if (d > 0) cursor[d - 1] += width_value(part, i);
    cursor[d] = x[i];
  }
  return x;
}

void draw_part(std::ostream& out, const FlameGraph& graph, const FlamePart& part, int focus_y, int direction,
               bool skip_root, double width, Amount scale) {
  const std::vector<double> x = layout(part);
  const double root = width_value(part, 0);
  if (root == 0) return;
  for (std::size_t i = skip_root ? 1 : 0; i < part.size(); ++i) {
    const double w = width * width_value(part, i) / root;
    if (w < 0.1) continue;
    const double left = kMargin + width * x[i] / root;
    const int y = focus_y + direction * static_cast<int>(part.depth[i]) * kRowHeight;
    const std::string& name = graph.names[part.name[i]];
    out << "<g class=\"frame\"><title>" << xml_text(frame_text(graph, part, i)) << "</title><rect x=\""
        << svg_number(left) << "\" y=\"" << y << "\" width=\"" << svg_number(w) << "\" height=\"" << kRowHeight - 1
        << "\" fill=\"" << frame_color(graph, part, i, scale) << "\"";
    if (part.comparison() && part.presence[i] != (kInA | kInB))
      out << " stroke=\"#000\" stroke-dasharray=\"3,2\"";  // a path of one run only
    out << "/>";
    // The REPL's rule for names in few columns (name_fit.h): packages shorten before the
    // `Class.method` a reader looks for.
    const auto fits = static_cast<std::size_t>(std::max(0.0, (w - 6) / kCharWidth));
    if (fits >= iface::kMinNameColumns)
      out << "<text x=\"" << svg_number(left + 3) << "\" y=\"" << y + 12 << "\">"
          << xml_text(iface::elide_name(name, fits)) << "</text>";
    out << "</g>\n";
  }
}

std::uint32_t max_depth(const FlamePart& part) { return *std::max_element(part.depth.begin(), part.depth.end()); }

}  // namespace

void write_svg(const FlameGraph& graph, std::ostream& out, const SvgOptions& options) {
  const double width = options.width - 2 * kMargin;
  const Amount scale = diff_scale(graph);
  std::vector<std::string> header{graph.title};
  for (const std::string& note : graph.notes) header.push_back("note: " + note);
  const int top = kMargin + static_cast<int>(header.size()) * 16 + 4;
  const int callers_rows = graph.callers ? static_cast<int>(max_depth(*graph.callers)) : 0;
  const int focus_y = top + callers_rows * kRowHeight;
  const int bottom = focus_y + (static_cast<int>(max_depth(graph.callees)) + 1) * kRowHeight;
  std::vector<std::string> legend;
  for (const Label& l : graph.labels) legend.push_back(l.color + "\t" + "label " + l.name);
  if (graph.comparison())
    legend.push_back("\tred: A − B > 0, blue: < 0, darkest at |A − B| = " + amount_text(graph, scale) +
                     "; dashed outline: the path occurs in one run only");
  const int charts_top = bottom + static_cast<int>(legend.size()) * 16 + 4;
  // The charts are drawn at their own size: a picture narrower than one is widened to hold it.
  const int svg_width = graph.causal.empty() ? options.width : std::max(options.width, kChartWidth + 2 * kMargin);
  const int height = charts_top + causal_svg_height(graph.causal, svg_width, kMargin) + kMargin;

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svg_width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << svg_width << " " << height << "\" font-family=\"monospace\" font-size=\"11\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  for (std::size_t k = 0; k < header.size(); ++k)
    out << "<text x=\"" << kMargin << "\" y=\"" << kMargin + 12 + 16 * static_cast<int>(k) << "\""
        << (k == 0 ? " font-size=\"14\"" : "") << ">" << xml_text(header[k]) << "</text>\n";
  if (graph.callers) draw_part(out, graph, *graph.callers, focus_y, -1, true, width, scale);
  draw_part(out, graph, graph.callees, focus_y, 1, false, width, scale);
  for (std::size_t k = 0; k < legend.size(); ++k) {
    const std::size_t tab = legend[k].find('\t');
    const int y = bottom + 4 + 16 * static_cast<int>(k);
    int x = kMargin;
    if (tab > 0) {
      out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"12\" height=\"12\" fill=\"" << legend[k].substr(0, tab)
          << "\"/>";
      x += 16;
    }
    out << "<text x=\"" << x << "\" y=\"" << y + 10 << "\">" << xml_text(legend[k].substr(tab + 1)) << "</text>\n";
  }
  write_causal_svg(out, graph.causal, charts_top, svg_width, kMargin);
  out << "</svg>\n";
}

}  // namespace bn::flame
