#pragma once
// Matching a call sequence with gaps and aspects (call_pattern.h, seed 000 sec. 2-3) against
// every root-to-node stack of a call tree, in one pass over the preorder arrays.
//
// The non-gap elements ("calls", at most 64) are numbered 0..k-1; the gaps cut them into
// segments of consecutive frames. Forward (scan): a stack satisfies the sequence iff matching
// each segment at its earliest end, in order, succeeds (ending a segment earlier leaves more
// room for the rest). Within the current segment a shift-and bit set holds which prefixes of
// it end at this frame; the state of a node is computed from its parent's, which preorder
// leaves at depth - 1 of a per-depth array, so the pass needs O(depth) memory. The last segment
// keeps matching after it first completes: each completion is a match of the last element at
// that frame, which is what base counts.
// Top extensions (scan_top_extensions): x;P for every method x at once, in one preorder pass;
// see the function for why earliest ends and latest starts make that exact.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/iface/call_pattern.h"

namespace bn::calltree {

class PatternMatcher {
 public:
  // What the forward pass says about one node.
  struct NodeMatch {
    bool satisfied = false;  // its stack satisfies the sequence (cum counts it)
    bool first = false;      // satisfied and its parent's stack is not: the outermost such node
    bool last_call = false;  // a match of the sequence ends at its frame (base counts it)
  };

  // Resolves methods and aspects against the tree's names once: O(methods · aspects).
  PatternMatcher(const CallTree& tree, const iface::CallPattern& pattern);

  // Calls visit(node, NodeMatch) for every node but the synthetic root, in preorder.
  template <class Visit>
  void scan(Visit&& visit) const;

  // Calls visit(x, node), in preorder, for every node where a match of x;P ends (x;P: the
  // sequence P with method x called immediately before its first call), for every x: the
  // nodes x;P's own scan reports as last_call. A node's stack satisfies x;P iff such a node of
  // x lies on it, so these give x;P's base and cum without building x;P.
  // With `above_x`, only frames of x whose caller's node is marked there count: given the nodes
  // whose stacks satisfy Q, the matches of Q;..;x;P (an upward split), since matching Q at its
  // earliest end leaves the most room below it.
  void scan_top_extensions(const std::function<void(MethodId x, NodeId node)>& visit,
                           const std::vector<char>* above_x = nullptr) const;

 private:
  struct State {
    std::uint32_t segment = 0;   // index of the segment being matched
    std::uint64_t prefixes = 0;  // bit i: calls [segment start, i] end at this frame
    bool satisfied = false;
  };

  const CallTree& tree_;
  std::vector<std::uint64_t> matches_;                       // per method id: bit i when call i matches the method
  std::vector<std::uint64_t> segment_calls_;                 // per segment: its calls' bits
  std::vector<std::uint64_t> segment_first_, segment_last_;  // per segment: its first / last call's bit
  std::uint64_t gap_after_ = 0;                              // bit i: a gap follows call i
  std::uint64_t last_call_ = 0;                              // bit of call k-1

  bool matches_frame(NodeId n, std::uint64_t call_bit) const { return (matches_[tree_.method(n)] & call_bit) != 0; }
  std::uint32_t segment_length(std::size_t segment) const;
  std::uint32_t latest_room_above(std::span<const NodeId> path, std::uint32_t start) const;
};

template <class Visit>
void PatternMatcher::scan(Visit&& visit) const {
  const std::uint32_t last_segment = static_cast<std::uint32_t>(segment_calls_.size() - 1);
  std::vector<State> by_depth(2);
  for (NodeId n = 1; n < tree_.node_count(); ++n) {
    const std::uint32_t d = tree_.depth(n);
    if (d >= by_depth.size()) by_depth.resize(by_depth.size() * 2);
    const State up = by_depth[d - 1];
    State& here = by_depth[d];
    here = up;
    const std::uint32_t seg = up.segment;
    here.prefixes = ((up.prefixes << 1) | segment_first_[seg]) & segment_calls_[seg] & matches_[tree_.method(n)];
    bool last_call = false;
    if (here.prefixes & segment_last_[seg]) {
      if (seg < last_segment) {
        here.segment = seg + 1;
        here.prefixes = 0;  // the next segment begins below this frame
      } else {
        here.satisfied = true;
        last_call = true;
      }
    }
    visit(n, NodeMatch{here.satisfied, here.satisfied && !up.satisfied, last_call});
  }
}

}  // namespace bn::calltree
