#pragma once
// The closing walk of a node table in preorder (CallTree::build): one pass over the nodes as they
// close (a node closes when the next node is not below it) finds subtree sizes, sums cum-costs and
// checks that no two siblings share a method. Internal to bn_calltree_model.
//
// The walk can be split in two at any node s: the nodes before s on the calling thread, those from
// s on a second thread that enters with the path from the root to node s - 1 (in preorder, the
// walk's own path there). The nodes on that path close in the second half's range but their
// children lie in both; they are closed after the two halves meet. Opening a profile waits on this
// walk (120 ms of 300 at 10M nodes, docs/performance.md "Opening a profile"), and the machine has a
// second core.

#include <cstddef>
#include <cstdint>
#include <span>

#include "bn/calltree/early_walk.h"
#include "bn/calltree/types.h"

namespace bn::calltree {

// Tables of this many nodes are walked on two threads: a thread costs ~0.1 ms to start, the walk
// ~12 ns a node.
constexpr std::size_t kTwoThreadWalk = std::size_t{1} << 16;

// Walks the table whose columns are `parent`, `method` and `cost` (parents before children, method
// ids below `method_count`), writing each node's subtree size to `size` and cum-cost to `cum` (as
// long as the table; their values mean nothing unless the table is in preorder). `split` is 0 for
// one thread, else the first node of the second thread's half (0 < split < nodes).
ClosingWalk close_in_preorder(std::span<const NodeId> parent, std::span<const MethodId> method,
                              std::span<const Cost> cost, std::size_t method_count, std::span<std::uint32_t> size,
                              std::span<Cost> cum, std::size_t split);

}  // namespace bn::calltree
