#pragma once
// The paths of one call tree labelled by a focus call sequence (seed 004 sec. 2.1: the nodes
// that root it and the path from each), and how cum(focus) splits among them so that every
// measurement is counted once (sec. 2.2): each outermost final node's subtree goes to its own
// path, each along node outside those subtrees to the first path (in root order) through it.

#include <span>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/flame/flame_graph.h"

namespace bn::flame {

struct FocusPath {
  calltree::NodeId root = 0, final = 0;
  bool outermost = false;  // final lies in no other path's final subtree
  Amount weight = 0;       // this path's share of cum(focus), in tree costs
};

// Every path labelled `calls`, in increasing order of root; empty when there is none.
std::vector<FocusPath> focus_paths(const calltree::CallTree& tree, std::span<const std::string> calls);

}  // namespace bn::flame
