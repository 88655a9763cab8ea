#pragma once
// Frame colours, the same in the SVG and in the page (web/flame.js, frameColor): a warm colour
// from the name's hash, a label's own colour, or in a comparison red (A more) and blue (B
// more) with a lightness on one absolute scale for the whole picture.

#include <cstddef>
#include <string>
#include <string_view>

#include "bn/flame/flame_graph.h"

namespace bn::flame {

// The |A − B| that gets the darkest colour: the largest over every frame but the roots (1 if
// there is none, or for a single profile).
Amount diff_scale(const FlameGraph& graph);

// A merged pseudo-frame ("[N frames merged]").
bool is_merged_frame(std::string_view name);

std::string frame_color(const FlameGraph& graph, const FlamePart& part, std::size_t i, Amount scale);

}  // namespace bn::flame
