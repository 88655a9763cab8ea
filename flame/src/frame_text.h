#pragma once
// What a frame's hover says, exactly (the SVG's <title>; web/flame.js writes the same).

#include <string>

#include "bn/flame/flame_graph.h"

namespace bn::flame {

// "name\ncum 97 samples (97.0%), base 15 samples" for one run; A, B and A − B for a comparison,
// with "only in A" / "only in B". The focus's cum and base are the summary's, from the profile
// interface; a caller shows only the cost of the summary reached through it.
std::string frame_text(const FlameGraph& graph, const FlamePart& part, std::size_t i);

// Numerators in the picture's denominator as exact text with the unit: "97 samples", "3/2".
std::string amount_text(const FlameGraph& graph, Amount a);

}  // namespace bn::flame
