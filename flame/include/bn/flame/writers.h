#pragma once
// The two outputs of a flame graph. Both write to a stream the caller opened (base::OutputFile).
//
// HTML: one self-contained page (no network, no external script): the picture's data as JSON
// and the viewer (web/flame.js, web/flame.css, embedded at build time) that draws it, zooms on a
// click, searches with the matched share, and shows costs on hover.
// SVG: a static picture for reports with the same layout and colours, a <title> per frame for
// hover.
// Both draw the graph's causal charts (causal_charts.h), when it has any, below the flame graph.

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "bn/flame/flame_graph.h"

namespace bn::flame {

// The files a flame graph is written as, by the extension of their name: any other name is
// refused rather than given an HTML page it does not announce (a .png that is not one).
enum class FlameFile { html, svg };
// The file an extension (with its dot) names, or nullopt.
std::optional<FlameFile> flame_file_for(std::string_view extension);
// The extensions for a message: ".html, .htm or .svg".
std::string flame_extensions_text();

void write_html(const FlameGraph& graph, std::ostream& out);

struct SvgOptions {
  int width = 1200;  // pixels
};
void write_svg(const FlameGraph& graph, std::ostream& out, const SvgOptions& options = {});

}  // namespace bn::flame
