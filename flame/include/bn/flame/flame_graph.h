#pragma once
// A flame graph as data: what the HTML and SVG writers draw, with every cost exact.
//
// A picture has one or two parts, each a tree of frames in preorder whose first frame is its
// root. For the whole profile the callee part is the call tree merged by call path (root "all")
// and there is no caller part. For a focus (a summary of the REPL, seed 004 sec. 2.1) the
// picture is a "sandwich": the callee part has the focus as root and everything it calls below,
// the caller part the same root and its callers, outermost last. Both roots are cum(focus):
// every measurement counted once, recursion included (seed 004 sec. 2.2).
//
// Costs are numerators over `denominator`. In a comparison (A minus B, seed 004 sec. 2.2) every
// frame has both runs' costs, B's already normalised, and knows in which runs its call path
// occurs, so a path of one run only can be marked.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bn/flame/causal_charts.h"
#include "bn/iface/amount.h"
#include "bn/iface/units.h"

namespace bn::flame {

using iface::Amount;

// Which runs a frame's call path occurs in (comparisons); a single profile's frames are in A.
enum Presence : std::uint8_t { kInA = 1, kInB = 2 };

struct FlamePart {
  std::vector<std::uint32_t> name;   // index into FlameGraph::names
  std::vector<std::uint32_t> depth;  // the root is 0; a child is one deeper than its parent
  // run A (or the only run); self is the frame's base (CallTree::base_cost: in a view the typed
  // time below a frame is its own, as `path` counts it)
  std::vector<Amount> total, self;
  std::vector<Amount> b_total, b_self;  // run B, normalised; empty unless a comparison
  std::vector<std::uint8_t> presence;   // Presence bits
  std::vector<std::uint32_t> labels;    // bit i: the frame lies on a path labelled by label i

  std::size_t size() const { return name.size(); }
  bool comparison() const { return !b_total.empty(); }
  // What the frame contributes: its total, or A − B in a comparison.
  Amount value(std::size_t i) const { return comparison() ? total[i] - b_total[i] : total[i]; }
  // One past the last frame of i's subtree.
  std::size_t subtree_end(std::size_t i) const;
};

struct Label {
  std::string name;
  std::string color;  // CSS colour
};

struct FlameGraph {
  std::string title;
  // How amounts print, as the REPL prints them: "60.5 s", "97 samples", "1.50 calls".
  iface::DisplayUnit unit;
  Amount denominator = 1;
  std::vector<std::string> names;
  FlamePart callees;
  std::optional<FlamePart> callers;  // with a focus only
  // The focus as a call sequence (empty: the whole profile) and its cum and base as the
  // profile interface gives them (a frame's self is not the summary's base when the focus has
  // more than one call).
  std::vector<std::string> focus;
  Amount focus_cum = 0, focus_base = 0;
  std::vector<Label> labels;
  // Frames merged because they were narrower than the bound (bound.h), and that bound as a
  // share of the root's width.
  std::uint64_t merged_frames = 0;
  double min_width = 0;
  std::vector<std::string> notes;  // shown in the picture: merged frames, a comparison's header
  CausalCharts causal;             // drawn below the flame graph; none without causal experiments

  bool comparison() const { return callees.comparison(); }
};

}  // namespace bn::flame
