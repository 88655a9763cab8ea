#pragma once
// Builds the flame graph of a profile from its call trees: the whole profile or one summary in
// context (flame_graph.h), of one run or of A minus B.
//
// Why call trees and not the profile interface: a frame's width in a flame graph is the cost
// below one call path, but the interface's cum(s@[m]) also counts the along nodes of s on the
// paths that continue with m (seed 004 sec. 2.2), so widths cannot be recovered from it. The
// numbers the picture shows for the focus (cum, base) still come from the interface, and the
// tests check that the widths add up to them.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/flame/flame_graph.h"

namespace bn::flame {

// One run: its tree, and how its node costs become numerators over the picture's denominator
// (a comparison's normalisation; the identity for a single profile).
struct TreeSide {
  const calltree::CallTree* tree = nullptr;
  std::function<Amount(Amount)> scale = [](Amount a) { return a; };
};

// A label as call sequences (outermost call first), drawn in its own colour.
struct LabelPaths {
  std::string name = {};
  std::vector<std::vector<std::string>> sequences = {};
};

struct BuildOptions {
  std::vector<std::string> focus = {};  // a call sequence; empty: the whole profile
  // Frames narrower than this share of their part's root are merged (bound.h); 0 keeps all.
  double min_width = 0;
  std::vector<LabelPaths> labels = {};
  std::string title = {};
  // The metric and its unit (metric_info.h): they decide how the picture prints amounts (units.h).
  std::string metric = {};
  std::string unit = {};
  Amount denominator = 1;
};

// The picture of A's runs (minus B's when there are any), each run's costs scaled by its side's
// `scale` (a side of several runs: its share of their mean). Throws bn::Error when the focus
// labels no path in any run.
FlameGraph build_flame(std::span<const TreeSide> a, std::span<const TreeSide> b, const BuildOptions& options);
// One run per side.
inline FlameGraph build_flame(const TreeSide& a, const std::optional<TreeSide>& b, const BuildOptions& options) {
  return build_flame(std::span(&a, 1), b ? std::span(&*b, 1) : std::span<const TreeSide>{}, options);
}

// The colour of label i (a fixed palette, repeated after its end).
std::string label_color(std::size_t i);

}  // namespace bn::flame
