#pragma once
// Profiles with several metrics: a node may carry more than one cost, e.g. exclusive
// wall time and calls for the call-tree recorder (seed 004 sec. 3 kept call counts and costs per
// calling context). Metric 0 is the one Metadata::metric/unit describe; the others are "extra".

#include <cstddef>
#include <string>
#include <vector>

#include "bn/calltree/types.h"

namespace bn::calltree {

// What one metric's costs count: a name ("time", "calls", "alloc_space") and a unit ("ns",
// "count", "bytes").
struct MetricSpec {
  std::string name;
  std::string unit;
};

// Most extra metrics a tree (and a file) may have: pprof files have a handful of sample types.
inline constexpr std::size_t kMaxExtraMetrics = 64;

// An extra metric's self cost per node, in the node order of the table it goes with.
struct MetricColumn {
  MetricSpec spec;
  std::vector<Cost> cost;
};

}  // namespace bn::calltree
