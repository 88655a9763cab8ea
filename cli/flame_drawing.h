#pragma once
// Draws what a search has in force (a view, A minus B) as a flame graph with flame/: shared by
// `bottlenecks flame` and the REPL's `flame`, which reaches it through Search::draw_flame.

#include <filesystem>
#include <string>

#include "bn/flame/writers.h"
#include "bn/search/profile_source.h"

namespace bn::cli {

class SearchSource;

struct FlameDrawOptions {
  // Frames narrower than this share of the picture are merged (0.1 px of a 1200 px picture):
  // the output stays bounded on huge profiles and the costs stay exact.
  double min_width = 0.1 / 1200;
  int svg_width = 1200;
  // The progress point of the causal charts drawn below the picture (empty: the first, as
  // `causal` picks it); a recording without causal experiments draws none.
  std::string progress;
};

// What a flame graph written to `file` is, by its name once a .gz or .zst is set aside. Throws
// bn::Error naming the extensions written, so `-o x.png` is refused before any work.
flame::FlameFile flame_file_of(const std::filesystem::path& file);

// Throws bn::Error naming the file, the focus when no path is labelled by it, or the progress
// point when there is no such point (or no experiments).
search::FlameResult draw_flame_graph(SearchSource& search, const search::FlameRequest& request,
                                     const FlameDrawOptions& options = {});

}  // namespace bn::cli
