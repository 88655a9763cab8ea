#pragma once
// What every pair of many regions shares, found in one sweep over all their lists in node order
// (internal to the tree backend). Measuring each pair (shared_cum, shared_base) costs a merge or
// a placement per pair: with L labels, L²/2 of them, minutes and gigabytes at 10^4 labels of
// which almost none meet. Here the cost follows what the regions hold and which pairs share.

#include <cstdint>
#include <span>
#include <vector>

#include "bn/iface/amount.h"
#include "node_region.h"

namespace bn::calltree::region {

struct PairShare {
  std::uint32_t first = 0, second = 0;  // positions in the list of regions, first < second
  iface::Amount cum = 0;                // shared_cum of the two
  iface::Amount base = 0;               // shared_base of the two
};

// Every pair of `regions` that shares any cum or base cost, by (first, second). O(E log E) for
// the E entries of all their lists (tops, single nodes, methods, along nodes), plus one addition
// per pair for each subtree nested in another region's, each node and each method that pairs
// share.
std::vector<PairShare> shared_by_pairs(std::span<const Region* const> regions);

}  // namespace bn::calltree::region
