#pragma once
// Base and cum of every method's length-1 summary [m] (seed 004 sec. 2.2):
//   base([m]) = Σ base_cost over the nodes of m (CallTree::base_cost: the cost of typed time
//               below a frame in a view is the frame's own),
//   cum([m])  = Σ cum_cost over the outermost nodes of m (those with no ancestor labelled m):
//               an inner node's subtree lies inside the outer one's and is counted there (the
//               paper's note on recursion).
//
// Visiting a method's nodes in preorder, a node has an ancestor labelled m exactly when it lies
// inside the subtree of the last outermost node of m met before it (outermost subtrees are
// disjoint and come in preorder, and every inner node lies in some outermost subtree). So one
// number per method, where that subtree ends, replaces a stack of open nodes with an on-stack
// count per method, and a node touches only its method's record.
//
// Computed on first use, two ways. A few methods (`path` of one, its extensions' methods) are
// figured one at a time from CallTree::nodes_of, O(their nodes). Once those add up to a share of
// the tree (`suggest` asks every method), one pass over the tree in preorder figures them all:
// it reads the tree's columns in order and makes one random access per node into the records
// (32 bytes each, half a cache line; 156k methods at 10M nodes).
//
// Sums are kept in 64 bits, checked (src/narrow_sums.h): a method's nodes are a subset of the tree, and with costs
// of both signs (a comparative or filtered tree) a subset can add up past what the whole tree's
// 64-bit total allows. Only then are all methods figured again with exact 128-bit sums (Amount).
//
// Not thread-safe; the CallTree must outlive it.

#include <cstdint>
#include <optional>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/iface/amount.h"

namespace bn::calltree {

class MethodTotals {
 public:
  struct Figures {
    iface::Amount base = 0;
    iface::Amount cum = 0;
    // Some node of the method lies below another of its nodes (recursion), so not every node
    // of the method is an outermost final node of its length-1 summary.
    bool nested = false;
  };

  // Methods are figured one at a time until their nodes add up to more than `one_by_one_share`
  // of the tree's nodes or they are more than kOneByOneMethods, then all at once (share 0: at
  // once from the start). One at a time a node costs three scattered reads (cost, cum-cost,
  // subtree size, fetched a few nodes ahead), in the pass a few ns, so what a switch wastes is
  // bounded by a fraction of the pass.
  static constexpr std::uint32_t kOneByOneMethods = 32;
  explicit MethodTotals(const CallTree& tree, double one_by_one_share = 1.0 / 16);

  // O(nodes of m) the first time m is asked, or O(nodes) once for every method; O(1) after.
  Figures operator[](MethodId m);
  // Some node is labelled m. Figures every method the first time (the pass reads the tree in
  // order: `suggest` lists every method that occurs without building CallTree's method index).
  bool occurs(MethodId m);
  // No node has a negative cost. O(nodes) the first time unless every method is figured.
  bool costs_never_negative();

  // The sums overflowed 64 bits and every figure is the 128-bit pass's (tests).
  bool widened() const { return !wide_.empty(); }
  // Every method is figured.
  bool complete() const { return complete_; }

 private:
  // A method's running figures: in 64 bits, 32 bytes.
  template <typename Sum>
  struct alignas(32) Tally {
    Sum base = 0;
    Sum cum = 0;
    // One past the subtree of the method's last outermost node met: a later node of the method
    // before this lies inside it. Not 0 once a node of the method is met (subtrees end past 1).
    NodeId open_until = 0;
    bool nested = false;
    bool figured = false;  // one at a time; the pass does not set it
  };
  // Adds node n, of the method of t, visited after the method's earlier nodes; false if a sum
  // overflowed.
  template <typename Sum>
  bool add(Tally<Sum>& t, NodeId n) const;
  // Figures every method into `tallies` (zeroed, one per method); false if a sum overflowed.
  template <typename Sum>
  bool add_up_all(std::vector<Tally<Sum>>& tallies);
  // Figures m from its nodes, or every method once the share is reached or a sum overflowed.
  void figure_one(MethodId m);
  // Figures every method, in 64 bits if they fit, otherwise in 128.
  void figure_all();

  const CallTree& tree_;
  const double one_by_one_share_;
  std::uint64_t one_by_one_nodes_ = 0;  // nodes of the methods figured one at a time
  std::uint32_t one_by_one_methods_ = 0;
  bool complete_ = false;
  std::vector<Tally<std::int64_t>> narrow_;  // sized on first use
  std::vector<Tally<iface::Amount>> wide_;   // empty unless a 64-bit sum overflowed
  std::optional<bool> costs_never_negative_;
};

}  // namespace bn::calltree
