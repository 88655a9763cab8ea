#include "bn/flame/build.h"

#include <utility>

#include "bn/base/error.h"
#include "focus_paths.h"
#include "part_builder.h"

namespace bn::flame {
namespace {

using calltree::CallTree;
using calltree::NodeId;

// Picture name ids of one tree's methods, interned on first use.
class TreeNames {
 public:
  TreeNames(const CallTree& tree, NameTable& names) : tree_(tree), names_(names), ids_(tree.method_count(), kUnset) {}
  std::uint32_t of(NodeId n) {
    std::uint32_t& id = ids_[tree_.method(n)];
    if (id == kUnset) id = names_.intern(tree_.node_name(n));
    return id;
  }

 private:
  static constexpr std::uint32_t kUnset = UINT32_MAX;
  const CallTree& tree_;
  NameTable& names_;
  std::vector<std::uint32_t> ids_;
};

// One run being added to the parts: side 0 is A, 1 is B.
struct Run {
  const TreeSide& side;
  int index;
  TreeNames names;
  const CallTree& tree() const { return *side.tree; }
  Amount scaled(Amount a) const { return side.scale(a); }
};

// Adds the subtrees of n's children under `frame`.
void merge_children(PartBuilder& part, std::uint32_t frame, Run& run, NodeId n) {
  std::vector<std::pair<NodeId, std::uint32_t>> stack{{n, frame}};
  while (!stack.empty()) {
    const auto [node, at] = stack.back();
    stack.pop_back();
    for (const NodeId c : run.tree().children(node)) {
      const std::uint32_t f = part.child(at, run.names.of(c));
      part.add(f, run.index, run.scaled(run.tree().cum_cost(c)), run.scaled(run.tree().base_cost(c)));
      stack.emplace_back(c, f);
    }
  }
}

void add_whole(PartBuilder& part, Run& run) {
  part.add(PartBuilder::kRoot, run.index, run.scaled(run.tree().total_cost()),
           run.scaled(run.tree().base_cost(calltree::kRootNode)));
  merge_children(part, PartBuilder::kRoot, run, calltree::kRootNode);
}

// The focus and its callees (below) and callers (above); false when the run has no such path.
bool add_focus(PartBuilder& callees, PartBuilder& callers, Run& run, std::span<const std::string> focus) {
  const std::vector<FocusPath> paths = focus_paths(run.tree(), focus);
  if (paths.empty()) return false;
  Amount cum = 0, below = 0, outermost_callers = 0;
  for (const FocusPath& p : paths) {
    cum += p.weight;
    if (p.outermost) {
      below += run.tree().cum_cost(p.final) - run.tree().base_cost(p.final);
      merge_children(callees, PartBuilder::kRoot, run, p.final);
    }
    // A path nested in another's final subtree that adds no cost (a recursive call) would only
    // draw frames of width 0, and walking its callers is as deep as the recursion: through a
    // chain of D recursive calls, O(D^2) frames of nothing.
    if (!p.outermost && p.weight == 0) continue;
    // Callers, innermost first; the weight ends (as self) at the outermost caller.
    std::uint32_t frame = PartBuilder::kRoot;
    for (NodeId n = run.tree().parent(p.root); n != calltree::kRootNode; n = run.tree().parent(n)) {
      frame = callers.child(frame, run.names.of(n));
      callers.add(frame, run.index, run.scaled(p.weight), 0);
    }
    if (frame == PartBuilder::kRoot)
      outermost_callers += p.weight;
    else
      callers.add(frame, run.index, 0, run.scaled(p.weight));
  }
  callees.add(PartBuilder::kRoot, run.index, run.scaled(cum), run.scaled(cum - below));
  callers.add(PartBuilder::kRoot, run.index, run.scaled(cum), run.scaled(outermost_callers));
  return true;
}

std::string joined(std::span<const std::string> calls) {
  std::string text;
  for (const std::string& c : calls) text += (text.empty() ? "" : ";") + c;
  return text;
}

// Sets bit i on every callee frame on a path labelled by a sequence of label i: the frames
// whose names, read down from the root (the focus counting as its calls), end with it.
void mark_labels(FlamePart& part, const NameTable& names, std::span<const std::string> focus,
                 std::span<const LabelPaths> labels) {
  constexpr std::uint32_t kAbsent = UINT32_MAX;
  const auto id_of = [&](const std::string& name) { return names.find(name).value_or(kAbsent); };
  struct Sequence {
    std::vector<std::uint32_t> ids;
    std::uint32_t bit;
  };
  std::vector<Sequence> sequences;
  for (std::size_t i = 0; i < labels.size() && i < 32; ++i)
    for (const auto& calls : labels[i].sequences) {
      Sequence s{{}, std::uint32_t{1} << i};
      for (const std::string& c : calls) s.ids.push_back(id_of(c));
      if (!s.ids.empty()) sequences.push_back(std::move(s));
    }
  part.labels.assign(part.size(), 0);
  if (sequences.empty()) return;
  std::vector<std::uint32_t> path, frames;  // names from the root down, and the frame of each
  std::vector<std::size_t> length_at;       // path length after the frame at each depth
  const auto mark_ending_at = [&](std::size_t end) {
    for (const Sequence& s : sequences) {
      if (s.ids.size() > end) continue;
      if (!std::equal(s.ids.begin(), s.ids.end(), path.begin() + static_cast<std::ptrdiff_t>(end - s.ids.size())))
        continue;
      for (std::size_t k = end - s.ids.size(); k < end; ++k) part.labels[frames[k]] |= s.bit;
    }
  };
  for (std::size_t i = 0; i < part.size(); ++i) {
    const std::uint32_t d = part.depth[i];
    const std::size_t keep = d == 0 ? 0 : length_at[d - 1];
    path.resize(keep);
    frames.resize(keep);
    length_at.resize(d + 1);
    if (d == 0) {
      for (const std::string& c : focus) {
        path.push_back(id_of(c));
        frames.push_back(0);
        mark_ending_at(path.size());
      }
    } else {
      path.push_back(part.name[i]);
      frames.push_back(static_cast<std::uint32_t>(i));
      mark_ending_at(path.size());
    }
    length_at[d] = path.size();
  }
}

}  // namespace

std::string label_color(std::size_t i) {
  // Cool and neutral colours, apart from the warm frames and the search's magenta.
  static const char* const kPalette[] = {"#1f77b4", "#2ca02c", "#17becf", "#9467bd", "#8c564b",
                                         "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#5254a3"};
  return kPalette[i % std::size(kPalette)];
}

FlameGraph build_flame(std::span<const TreeSide> a, std::span<const TreeSide> b, const BuildOptions& options) {
  NameTable names;
  const bool comparison = !b.empty();
  const bool focused = !options.focus.empty();
  PartBuilder callees(names.intern(focused ? joined(options.focus) : "all"), comparison);
  PartBuilder callers(focused ? names.intern(joined(options.focus)) : 0, comparison);
  std::vector<Run> runs;
  for (const TreeSide& side : a) runs.push_back({side, 0, TreeNames(*side.tree, names)});
  for (const TreeSide& side : b) runs.push_back({side, 1, TreeNames(*side.tree, names)});
  bool found = false;
  for (Run& run : runs) {
    if (focused)
      found = add_focus(callees, callers, run, options.focus) || found;
    else
      add_whole(callees, run);
  }
  if (focused && !found)
    throw Error("no call path is labelled " + joined(options.focus) +
                (runs.size() > 2 ? " in any run"
                 : comparison    ? " in either run"
                                 : ""));

  FlameGraph graph;
  graph.title = options.title;
  graph.unit = iface::display_unit(options.metric, options.unit);
  graph.denominator = options.denominator;
  graph.focus = options.focus;
  graph.min_width = options.min_width;
  graph.callees = callees.finish(names, options.min_width, graph.merged_frames);
  if (focused) graph.callers = callers.finish(names, options.min_width, graph.merged_frames);
  mark_labels(graph.callees, names, options.focus, options.labels);
  if (graph.callers) graph.callers->labels.assign(graph.callers->size(), 0);
  for (std::size_t i = 0; i < options.labels.size() && i < 32; ++i)
    graph.labels.push_back({options.labels[i].name, label_color(i)});
  if (options.labels.size() > 32)
    graph.notes.push_back("only the first 32 labels are coloured (" + std::to_string(options.labels.size()) +
                          " given)");
  if (graph.merged_frames > 0)
    graph.notes.push_back(std::to_string(graph.merged_frames) + " frames narrower than " +
                          std::to_string(options.min_width * 100).substr(0, 6) +
                          "% of the width are merged into \"[N frames merged]\" frames (costs exact; search does "
                          "not look inside them)");
  graph.names = std::move(names).take();
  return graph;
}

}  // namespace bn::flame
