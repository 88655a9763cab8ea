#pragma once
// Pruning and focus on one call tree (bn/iface/profile_filter.h): the tree the REPL searches
// once `exclude` and `focus` are in force, so that every operation of TreeProfile (and of a
// comparison or a view built on such trees) sees only the measurements that pass.

#include <span>

#include "bn/calltree/call_tree.h"
#include "bn/iface/profile_filter.h"

namespace bn::calltree {

// The tree of the measurements of `tree` that pass every filter. A measurement is a node's own
// cost, in every metric; its stack is the methods from the outermost frame down to the node,
// matched with the rules of call_pattern.h (PatternMatcher). A node whose measurement passes
// keeps its costs; a node whose measurement is dropped gets cost 0. A node stays while it or a
// node below it passes with a cost other than 0 in some metric (it is a frame of their stacks);
// otherwise it is left out, so a caller of only dropped costs vanishes from every listing.
// The synthetic root's stack is empty: it satisfies no sequence. Method ids, names, metadata,
// metrics and refining methods (call_tree.h) are those of `tree`. O(nodes · filters) time, plus O(methods) per aspect.
// Throws bn::Error for a pattern the matcher refuses (call_pattern.h's rules, more than 64
// calls).
CallTree filtered_tree(const CallTree& tree, std::span<const iface::ProfileFilter> filters);

}  // namespace bn::calltree
