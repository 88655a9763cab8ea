#pragma once
// Synthetic call trees with the shape seed 004 reports for real ones (Table 5: about half the
// nodes leaves, mean depth 34, interior out-degree 1.89), at any size, for benchmarks and scale
// tests. Deterministic: the same options give the same tree on every platform (own PRNG, no
// std::*_distribution, whose output is implementation-defined).
//
// Shape:
// - Depth: the nodes per depth follow a gamma-like bell (mean depth about 47) over 1..max depth,
//   where max depth grows slowly with size (about 80 at 50k nodes, 110 at 10M nodes).
// - Out-degree: each depth's nodes are the children of about count/1.9 of the depth above,
//   so interior nodes have 1.9 children on average and about 47% of the nodes are leaves.
// - Methods: leaves mostly call "utility" methods and interior nodes "application" methods,
//   both drawn with Zipf-like popularity (rank r with probability ~ 1/(r+1)), so the hottest
//   utilities label ~10^5 nodes of a 10M-node tree; application methods keep to a depth band,
//   as framework frames do. Recursion: some frames repeat their parent's or grandparent's
//   method, and popular utilities call each other.
// - Costs: heavy-tailed sample counts, mostly on leaves; optionally call counts on every node.
//
// Fleet: options.host = K >= 1 gives host K of a fleet running that program, for the fleet
// store's tests. The shape and methods are the seed's, the same on every host (same code); so is
// each node's cost, taken as how often the program runs that path. The host's own workload comes
// from a generator seeded by (seed, K):
// - Its costs are the program's times a factor of its own per node, log-uniform in [1/2, 2]
//   (rounded, at least 1): hot paths are hot on every host, no two hosts agree exactly.
// - A leaf of cost 1 is a rarely taken path: the program takes it on a host with a probability
//   of the leaf's own, log-uniform in [1/100, 1] and the same on every host, so about 1 in 5 of
//   them per host. A path not taken is absent, and so are the ancestors it leaves without cost
//   or children: a host has fewer nodes than options.nodes.
// Over half the program's stacks are on every host. At 100k nodes (60.5k stacks) a host holds
// about 39k, 92% of them also on any other host, and the union over hosts grows with the log of
// their number: 42k on 2 hosts, 50k on 10, 59k on 100.
//
// The tree is built as a NodeTable level by level, without TreeBuilder's hash map, so 10M
// nodes take a few seconds and under 1 GB.

#include <cstdint>

#include "bn/calltree/call_tree.h"

namespace bn::calltree {

struct SyntheticOptions {
  std::uint64_t nodes = 1'000'000;  // call-tree nodes, the synthetic root not counted; >= 100
  std::uint64_t seed = 1;
  // Also a second metric "calls" (unit count, metric.h): every node called at least once, with a
  // heavy tail, drawn from its own generator so the samples are the same with or without it.
  bool calls = false;
  // The deeper shape of seed 004 Table 1 (Trade3 on WebSphere: mean depth 60-65, max depth 135)
  // instead of the one above: mean depth about 66, max depth 135 at every size.
  bool deep = false;
  // Host K >= 1 of a fleet running the program (see "Fleet" above); 0 for the program itself.
  std::uint64_t host = 0;
};

// Throws bn::Error if options.nodes is below 100 or above kMaxNodes.
CallTree generate_synthetic_tree(const SyntheticOptions& options);

}  // namespace bn::calltree
