#pragma once
// Test helper: a deliberately naive evaluation of the seed 004 sec. 2.2 set definitions. It
// knows nothing of preorder, subtree sizes or cum-costs: a node is its calling context (the
// list of method names from the outermost frame), paths are found by trying every node, and
// along/final/descendants are explicit std::sets that are summed at the end.
//
// Base sums each node's base, from its definition (CallTree::base_cost) read literally: a node of
// a method that does not refine has its own cost plus that of every node below it whose frames
// after it all refine; a refining node has 0 when some frame above it does not refine, else its
// own cost. Without refining methods a node's base is its own cost.

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bn/iface/amount.h"
#include "stack_tree.h"

namespace bn::calltree::testing {

using iface::Amount;

using Context = std::vector<std::string>;  // a node: its calling context
using Calls = std::vector<std::string>;    // a call sequence

struct NaivePaths {
  std::set<Context> roots, along, finals;
};

class NaiveProfile {
 public:
  explicit NaiveProfile(const Stacks& stacks, std::set<std::string> refining = {}) : refining_(std::move(refining)) {
    for (const auto& [stack, cost] : stacks) {
      Context context;
      std::size_t start = 0;
      for (;;) {
        const auto semi = stack.find(';', start);
        context.push_back(stack.substr(start, semi - start));
        cost_.emplace(context, 0);  // every prefix of a stack is a node
        methods_.insert(context.back());
        if (semi == std::string::npos) break;
        start = semi + 1;
      }
      cost_[context] += cost;
    }
  }

  const std::set<std::string>& methods() const { return methods_; }

  // paths(S) of sec. 2.2: every path labelled by one of the call sequences, from every node.
  // Kept per S: the property tests ask about the same sequences many times (every extension
  // twice, each set's members again), and recounting them dominated the suite under ASan.
  const NaivePaths& paths(const std::vector<Calls>& S) const {
    if (const auto known = paths_.find(S); known != paths_.end()) return known->second;
    NaivePaths result;
    for (const Calls& calls : S) {
      for (const auto& [node, cost] : cost_) {
        if (node.back() != calls.front()) continue;
        std::vector<Context> path = {node};
        for (std::size_t i = 1; i < calls.size(); ++i) {
          Context next = path.back();
          next.push_back(calls[i]);
          if (!cost_.count(next)) break;
          path.push_back(next);
        }
        if (path.size() != calls.size()) continue;
        result.roots.insert(node);
        result.along.insert(path.begin(), path.end());
        result.finals.insert(path.back());
      }
    }
    return paths_.emplace(S, std::move(result)).first->second;
  }

  // descendants(S): nodes that have some final node as a proper prefix.
  std::set<Context> descendants(const std::set<Context>& finals) const {
    std::set<Context> result;
    for (const auto& [node, cost] : cost_)
      for (std::size_t len = 1; len < node.size(); ++len)
        if (finals.count(Context(node.begin(), node.begin() + static_cast<std::ptrdiff_t>(len)))) result.insert(node);
    return result;
  }

  // along(S) ∪ descendants(S): the nodes whose cost cum counts.
  const std::set<Context>& cum_nodes(const std::vector<Calls>& S) const {
    if (const auto known = cum_nodes_.find(S); known != cum_nodes_.end()) return known->second;
    const NaivePaths& p = paths(S);
    std::set<Context> nodes = descendants(p.finals);
    nodes.insert(p.along.begin(), p.along.end());
    return cum_nodes_.emplace(S, std::move(nodes)).first->second;
  }

  Amount sum(const std::set<Context>& nodes) const {
    Amount total = 0;
    for (const Context& n : nodes) total += cost_.at(n);
    return total;
  }

  // Σ base over the nodes (see the top of this file).
  Amount base_sum(const std::set<Context>& nodes) const {
    Amount total = 0;
    for (const Context& n : nodes) total += base(n);
    return total;
  }
  Amount base(const Context& node) const {
    const auto refines = [&](const std::string& m) { return refining_.count(m) > 0; };
    if (refines(node.back())) return std::all_of(node.begin(), node.end() - 1, refines) ? cost_.at(node) : 0;
    Amount b = 0;
    for (const auto& [other, cost] : cost_)
      if (other.size() >= node.size() && std::equal(node.begin(), node.end(), other.begin()) &&
          std::all_of(other.begin() + static_cast<std::ptrdiff_t>(node.size()), other.end(), refines))
        b += cost;
    return b;
  }

  Amount total_base(const std::vector<Calls>& S) const { return base_sum(paths(S).along); }
  Amount total_cum(const std::vector<Calls>& S) const { return sum(cum_nodes(S)); }

  // Names m such that m :: calls (top) or calls @ [m] (bottom) has a root, sorted.
  std::vector<std::string> extensions(const Calls& calls, bool top) const {
    std::vector<std::string> result;
    for (const std::string& m : methods_) {
      Calls longer = calls;
      if (top)
        longer.insert(longer.begin(), m);
      else
        longer.push_back(m);
      if (!paths({longer}).roots.empty()) result.push_back(m);
    }
    return result;
  }

  // Every node (calling context) with its own cost.
  const std::map<Context, Cost>& nodes() const { return cost_; }

 private:
  std::map<Context, Cost> cost_;
  std::set<std::string> methods_;
  std::set<std::string> refining_;
  mutable std::map<std::vector<Calls>, NaivePaths> paths_;
  mutable std::map<std::vector<Calls>, std::set<Context>> cum_nodes_;
};

}  // namespace bn::calltree::testing
