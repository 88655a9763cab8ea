#include "flame_drawing.h"

#include <filesystem>
#include <ostream>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
#include "bn/base/output_file.h"
#include "bn/calltree/compress.h"
#include "bn/flame/build.h"
#include "bn/flame/writers.h"
#include "bn/iface/overlap.h"
#include "flame_causal.h"
#include "search_source.h"

namespace bn::cli {
namespace {

std::string title_of(SearchSource& search, const search::FlameRequest& request, const std::string& profile_name) {
  std::string title = profile_name;
  if (search.comparison()) title += " minus " + search.base_name();
  if (search.view() != "tree") title += ", view " + search.view();
  if (request.focus.empty()) return title + ": the whole profile";
  std::string focus;
  for (const std::string& call : request.focus) focus += (focus.empty() ? "" : ";") + call;
  return title + ": " + focus + ", its callers above and its callees below";
}

// The curves of a causal recording below the picture. They add to it: unless `progress` asks for
// them, experiments that cannot be analysed (recordings that do not pool) leave them out with a
// note rather than fail the flame graph, which `diff --flame` draws as well.
void add_causal_charts(SearchSource& search, const std::string& progress, flame::FlameGraph& graph) {
  try {
    if (!search.has_causal_experiments()) {
      if (progress.empty()) return;
      throw Error(std::string(search::kNoCausalExperiments));
    }
    const search::CausalReport report = search.causal(progress);
    graph.causal = causal_charts(report);
    for (const std::string& note : report.notes) graph.notes.push_back("causal: " + note);
  } catch (const Error& e) {
    if (!progress.empty()) throw Error("--progress " + progress + ": " + e.what());
    graph.notes.push_back("causal curves left out: " + std::string(e.what()));
  }
}

}  // namespace

flame::FlameFile flame_file_of(const std::filesystem::path& file) {
  const std::string extension = calltree::uncompressed_name(file).extension().string();
  if (const std::optional<flame::FlameFile> kind = flame::flame_file_for(extension)) return *kind;
  throw Error("cannot write a flame graph to '" + file.string() + "': name it " + flame::flame_extensions_text() +
              " (then .gz or .zst to compress)");
}

search::FlameResult draw_flame_graph(SearchSource& search, const search::FlameRequest& request,
                                     const FlameDrawOptions& options) {
  const bool svg = flame_file_of(request.file) == flame::FlameFile::svg;
  iface::Profile& profile = search.profile();
  flame::BuildOptions build;
  build.focus = request.focus;
  build.min_width = options.min_width;
  build.metric = profile.metric().metric;
  build.unit = profile.metric().unit;
  build.denominator = profile.denominator();
  build.title = title_of(search, request, search.profile_name());
  for (const search::FlameRequest::Label& label : request.labels) build.labels.push_back({label.name, label.sequences});
  std::vector<flame::TreeSide> a, b;
  if (const comparative::ComparativeProfile* comparison = search.comparison()) {
    // Each run's share of its side's mean, B weighed by the normalisation.
    const comparative::Scaling& scaling = comparison->scaling();
    const std::vector<const calltree::CallTree*> a_trees = search.a_trees(), b_trees = search.base_trees();
    for (std::size_t i = 0; i < a_trees.size(); ++i)
      a.push_back({a_trees[i], [&scaling, i](iface::Amount v) { return scaling.scale_a(v, i); }});
    for (std::size_t j = 0; j < b_trees.size(); ++j)
      b.push_back({b_trees[j], [&scaling, j](iface::Amount v) { return scaling.scale_b(v, j); }});
  } else {
    a.push_back({.tree = &search.tree()});
  }
  flame::FlameGraph graph = flame::build_flame(a, b, build);
  if (!request.focus.empty()) {
    const std::vector<std::string_view> calls(request.focus.begin(), request.focus.end());
    if (const std::optional<iface::Summary> s = profile.path_summary(calls)) {
      graph.focus_cum = profile.cum_of(*s);
      graph.focus_base = profile.base_of(*s);
    }
  }
  for (const std::string& line : search.header()) graph.notes.push_back(line);
  add_causal_charts(search, options.progress, graph);

  base::OutputFile file(request.file);
  calltree::CompressingStreambuf buffer(file.stream(), calltree::compression_for_name(request.file), request.file);
  std::ostream out(&buffer);
  if (svg)
    flame::write_svg(graph, out, {.width = options.svg_width});
  else
    flame::write_html(graph, out);
  buffer.finish();
  file.commit();
  return {svg ? "svg" : "html", graph.callees.size() + (graph.callers ? graph.callers->size() - 1 : 0),
          graph.merged_frames};
}

}  // namespace bn::cli
