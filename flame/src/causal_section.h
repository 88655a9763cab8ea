#pragma once
// Where the causal charts (causal_chart.h) go in each output: a section of the page below the
// flame graph, and a block below the static SVG's legend; the same heading and words in both.

#include <ostream>
#include <string>

#include "bn/flame/causal_charts.h"

namespace bn::flame {

// The page's section, or nothing without charts (the page is then the one a recording without
// experiments always had).
std::string causal_section_html(const CausalCharts& charts);

// The block in an SVG `width` pixels wide, its charts in rows from `left`: its height (0 without
// charts), and its markup from y = `top`.
int causal_svg_height(const CausalCharts& charts, int width, int left);
void write_causal_svg(std::ostream& out, const CausalCharts& charts, int top, int width, int left);

}  // namespace bn::flame
