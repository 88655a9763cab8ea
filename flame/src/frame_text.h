#pragma once
// What a frame's hover says (the SVG's <title>; web/flame.js writes the same texts). Amounts read
// as the REPL prints them, by the rules of profile-iface/src/units.cpp (units.h): a picture is
// read beside the REPL's tables, and "cum 60469348886 ns" says nothing at a glance.

#include <string>

#include "bn/flame/flame_graph.h"

namespace bn::flame {

// "name\ncum 60.5 s (97.0%), base 12.3 ms" for one run; A, B and A − B for a comparison,
// with "only in A" / "only in B". The focus's cum and base are the summary's, from the profile
// interface; a caller shows only the cost of the summary reached through it.
std::string frame_text(const FlameGraph& graph, const FlamePart& part, std::size_t i);

// A numerator over the picture's denominator with its unit: "97 samples", "12.3 ms", "0.700 CPUs".
std::string amount_text(const FlameGraph& graph, Amount a);

}  // namespace bn::flame
