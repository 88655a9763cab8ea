#pragma once
// Draws what a search has in force (a view, A minus B) as a flame graph with flame/: shared by
// `bottlenecks flame` and the REPL's `flame`, which reaches it through Search::draw_flame.

#include "bn/search/profile_source.h"

namespace bn::cli {

class SearchSource;

struct FlameDrawOptions {
  // Frames narrower than this share of the picture are merged (0.1 px of a 1200 px picture):
  // the output stays bounded on huge profiles and the costs stay exact.
  double min_width = 0.1 / 1200;
  int svg_width = 1200;
};

// Throws bn::Error naming the file, or the focus when no path is labelled by it.
search::FlameResult draw_flame_graph(SearchSource& search, const search::FlameRequest& request,
                                     const FlameDrawOptions& options = {});

}  // namespace bn::cli
