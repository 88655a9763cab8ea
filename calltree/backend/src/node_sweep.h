#pragma once
// Set algebra on preorder node numbers (internal to the tree backend). A subtree is the
// interval [n, subtree_end(n)), so "covered by the subtree of some node in F" is a sweep over
// sorted numbers instead of a walk up the tree (the paper walks edges backwards, sec. 2.2;
// the interval test makes each step O(1) and lets sorted lists be merged).

#include <algorithm>
#include <span>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/iface/amount.h"

namespace bn::calltree::sweep {

// First position in [first, last) whose value is >= value, searching outwards from `first`
// so that short skips cost O(log skip) rather than O(log (last - first)).
const NodeId* gallop(const NodeId* first, const NodeId* last, NodeId value);

// The outermost nodes of the union of several increasing lists: the nodes inside no other
// listed node's subtree, increasing. Nested nodes are skipped by galloping, so long runs
// inside one subtree cost O(log run); with T nodes in L lists, O(T log L) at worst.
std::vector<NodeId> outermost(const CallTree& tree, std::span<const std::span<const NodeId>> lists);

// The outermost nodes of one increasing list into `out` (cleared first), reusing its storage.
void outermost_of_sorted(const CallTree& tree, std::span<const NodeId> nodes, std::vector<NodeId>& out);

// Calls f(n) for every n of the increasing list `nodes` that lies outside the subtrees of all
// of `tops` (increasing, none inside another's subtree).
template <typename F>
void for_each_outside(const CallTree& tree, std::span<const NodeId> nodes, std::span<const NodeId> tops, F&& f) {
  auto top = tops.begin();
  for (NodeId n : nodes) {
    while (top != tops.end() && tree.subtree_end(*top) <= n) ++top;
    if (top == tops.end() || n < *top) f(n);
  }
}

// Σ cost over the nodes / Σ base_cost over them / Σ cum_cost over them.
iface::Amount sum_cost(const CallTree& tree, std::span<const NodeId> nodes);
iface::Amount sum_base_cost(const CallTree& tree, std::span<const NodeId> nodes);
iface::Amount sum_cum_cost(const CallTree& tree, std::span<const NodeId> nodes);

// Appends the path of `length` nodes that ends at `final_node`, root first: paths listed in
// preorder of their roots that share no node then come out sorted already.
void append_path(const CallTree& tree, NodeId final_node, std::size_t length, std::vector<NodeId>& out);

// Sorts and removes duplicates. Lists of paths are often sorted already (nested recursion, calls
// apart), which costs one pass; the others go by a radix sort (Boost's spreadsort): the lists of
// a summary's 10^6 nodes are sorted for every zoom step built.
void sort_unique(std::vector<NodeId>& nodes);

}  // namespace bn::calltree::sweep
