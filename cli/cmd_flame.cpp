// `bottlenecks flame PROFILE -o out.html|out.svg`: a flame graph of the whole profile, or of one
// call sequence in context (--focus: its callers above, its callees below), of one run or of A
// minus B (--base). HTML is one self-contained page that zooms, searches and shows exact costs;
// SVG is a static picture for reports. Labels from a `save`d file are drawn in their own colours.
// A causal recording's curves, one chart per target, are drawn below the picture in both.

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "bn/base/error.h"
#include "bn/iface/call_pattern.h"
#include "bn/search/label_file.h"
#include "bn/search/method_names.h"
#include "commands.h"
#include "flame_drawing.h"
#include "search_source.h"

namespace bn::cli {
namespace {

struct FlameOptions {
  SearchOptions search;
  std::string output;
  std::string focus;     // m1;m2;...
  std::string labels;    // a label file
  std::string progress;  // of the causal charts
  double min_width_px = 0.1;
  int width = 1200;
};

// --focus read as the REPL's `path` reads a call sequence (short names, prefixes, `*` globs), as
// the full names the picture is drawn from.
std::vector<std::string> focus_calls(SearchSource& search, const std::string& focus) {
  iface::Profile& profile = search.profile();
  const search::MethodIndex methods(profile);
  std::vector<std::string> calls;
  try {
    const iface::Summary s =
        search::resolve_call_sequence(profile, methods, focus, search::AspectTable{}, search.typed_time());
    for (const std::string_view call : profile.path_of(s)) {
      if (call == iface::kGapText) throw Error("a flame graph draws consecutive calls, without '..'");
      calls.emplace_back(call);
    }
  } catch (const Error& e) {
    throw Error("--focus '" + focus + "': " + e.what());
  }
  return calls;
}

// The labels of a `save`d file, grouped by name in file order.
std::vector<search::FlameRequest::Label> labels_from(const std::string& file) {
  std::vector<search::FlameRequest::Label> labels;
  for (const search::SavedLabel& saved : search::read_label_file(file).labels) {
    auto it = std::find_if(labels.begin(), labels.end(), [&](const auto& l) { return l.name == saved.label; });
    if (it == labels.end()) it = labels.insert(labels.end(), {saved.label, {}});
    it->sequences.push_back(saved.calls);
  }
  return labels;
}

void run_flame(const FlameOptions& options) {
  flame_file_of(options.output);  // a name it cannot write is refused before the profile is read
  search::FlameRequest request;
  request.file = options.output;
  if (!options.labels.empty()) request.labels = labels_from(options.labels);
  SearchSource search(options.search);
  if (!options.focus.empty()) request.focus = focus_calls(search, options.focus);
  draw_flame_graph(
      search, request,
      {.min_width = options.min_width_px / options.width, .svg_width = options.width, .progress = options.progress});
}

}  // namespace

void setup_flame(CLI::App& app) {
  auto options = std::make_shared<FlameOptions>();
  CLI::App* sub = app.add_subcommand(
      "flame", "Draw a flame graph: the whole profile or one call sequence in context, as HTML or SVG");
  add_profile_options(*sub, options->search.profile);
  add_view_options(*sub, options->search);
  add_compare_options(*sub, options->search.compare);
  sub->add_option("-o,--output", options->output,
                  "File to write: NAME.svg a static SVG, NAME.html (or .htm) a self-contained HTML page (zoom, "
                  "search, exact costs on hover); .gz or .zst compresses")
      ->required();
  sub->add_option("--focus", options->focus,
                  "Draw this call sequence (m1;m2;..., read as the REPL's `path` reads it: full or short names, "
                  "prefixes, * globs) with its callers above and its callees below, instead of the whole profile");
  sub->add_option("--labels", options->labels, "Colour the paths of the labels in FILE (written by the REPL's `save`)");
  sub->add_option("--progress", options->progress,
                  "Of a causal recording, the progress point of the curves drawn below the flame graph (as "
                  "`causal --progress NAME`; default the first recorded)");
  sub->add_option("--min-width", options->min_width_px,
                  "Merge frames narrower than this many pixels of the full width into one per parent (default 0.1; "
                  "0 keeps every frame)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--width", options->width, "Width of the picture in pixels, for the bound and the SVG (default 1200)")
      ->check(CLI::Range(100, 100000));
  sub->callback([options] { run_flame(*options); });
}

}  // namespace bn::cli
