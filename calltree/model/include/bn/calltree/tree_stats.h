#pragma once
// The characteristics seed 004 reports for its profiles (Table 1 and Table 5): tree and leaf
// nodes, maximum and mean depth, maximum and mean out-degree of interior nodes. The synthetic
// root is not a call-tree node and is left out of every figure.

#include <cstdint>

#include "bn/calltree/call_tree.h"

namespace bn::calltree {

struct TreeStats {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
  std::uint32_t max_depth = 0;       // outermost frames have depth 1
  std::uint64_t depth_sum = 0;       // mean depth = depth_sum / nodes
  std::uint32_t max_out_degree = 0;  // over interior nodes
  std::uint64_t interior_nodes = 0;  // mean out-degree = interior_edges / interior_nodes
  std::uint64_t interior_edges = 0;
  std::uint64_t distinct_methods = 0;  // methods labelling at least one node
  Cost total_cost = 0;
};

TreeStats compute_stats(const CallTree& tree);

}  // namespace bn::calltree
