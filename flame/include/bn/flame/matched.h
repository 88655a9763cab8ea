#pragma once
// The share of a picture that a search matches, counted as the REPL counts a set of summaries:
// a measurement under several matching frames once (seed 004 sec. 2.2, total_cum_of). The HTML
// page computes the same from the same data (web/flame.js, matchedValue); tests compare both
// with the REPL's coverage.

#include <functional>
#include <string_view>

#include "bn/flame/flame_graph.h"

namespace bn::flame {

// Σ value over the outermost frames of the callee part whose name satisfies `matches`.
Amount matched_value(const FlameGraph& graph, const std::function<bool(std::string_view)>& matches);

}  // namespace bn::flame
