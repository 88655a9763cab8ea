#include "bn/calltree/tree_stats.h"

#include <algorithm>
#include <vector>

namespace bn::calltree {

TreeStats compute_stats(const CallTree& tree) {
  TreeStats s;
  s.nodes = tree.node_count() - 1;
  s.total_cost = tree.total_cost();
  std::vector<bool> occurs(tree.method_count());  // not the tree's method index: `info` lists no node
  for (NodeId n = 1; n < tree.node_count(); ++n) {
    occurs[tree.method(n)] = true;
    const std::uint32_t depth = tree.depth(n);
    s.depth_sum += depth;
    s.max_depth = std::max(s.max_depth, depth);
    if (tree.is_leaf(n)) {
      ++s.leaves;
      continue;
    }
    std::uint32_t degree = 0;
    for ([[maybe_unused]] NodeId child : tree.children(n)) ++degree;
    ++s.interior_nodes;
    s.interior_edges += degree;
    s.max_out_degree = std::max(s.max_out_degree, degree);
  }
  s.distinct_methods = static_cast<std::uint64_t>(std::count(occurs.begin(), occurs.end(), true));
  return s;
}

}  // namespace bn::calltree
