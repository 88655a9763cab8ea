#pragma once
// One target's causal curve as a small SVG chart, the same markup in the page and in the static
// SVG (causal_section.h places them): x the virtual speedup 0–100%, y the program speedup with
// its interval as error bars, a zero line, and dashed the line its cost share promises (made s%
// faster, a target of cost share c saves s·c of the time, the estimate a sampling profile
// gives). Classes and data attributes name the parts for the page's script and its tests.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

#include "bn/flame/causal_charts.h"

namespace bn::flame {

inline constexpr int kChartWidth = 300;
inline constexpr int kChartHeight = 200;
inline constexpr int kChartGap = 12;  // between charts, either way

// Where a chart goes in an enclosing SVG; the page lays its charts out itself.
struct ChartPosition {
  int x = 0;
  int y = 0;
};

// The chart of the target ranked `rank` (1: the largest gain) as one <svg class="causal-chart">.
void write_causal_chart(std::ostream& out, const CausalChart& chart, std::size_t rank, std::optional<ChartPosition> at);

// A fraction as a percentage with one decimal, as `causal` prints it: "62.0%", or with `sign`
// "+24.0%" / "-3.1%".
std::string percent_text(double fraction, bool sign);

}  // namespace bn::flame
