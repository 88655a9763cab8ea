#pragma once
// Test helper: a deliberately naive recount of call sequences with gaps and aspects (seed 000
// sec. 2-3, bn/iface/call_pattern.h). Every node's stack (its calling context) is tried against
// the sequence by backtracking over every placement of every element; an aspect is an explicit
// set of method names. Nothing is shared with the backend's matcher.

#include <set>
#include <string>
#include <vector>

#include "naive_profile.h"

namespace bn::calltree::testing {

struct NaiveElement {
  enum class Kind { method, aspect, gap } kind;
  std::string name;               // the method, or the aspect (without ':')
  std::set<std::string> members;  // an aspect's methods
};
using NaivePattern = std::vector<NaiveElement>;

// Does pattern[i..] match stack[j..], element i placed at frame j? With `at_leaf`, the last
// element must be placed at the stack's last frame.
inline bool naive_match_from(const NaivePattern& pattern, std::size_t i, const Context& stack, std::size_t j,
                             bool at_leaf) {
  const NaiveElement& e = pattern[i];
  if (e.kind == NaiveElement::Kind::gap) {
    for (std::size_t k = j; k < stack.size(); ++k)
      if (naive_match_from(pattern, i + 1, stack, k, at_leaf)) return true;
    return false;
  }
  if (j >= stack.size()) return false;
  const bool here = e.kind == NaiveElement::Kind::method ? stack[j] == e.name : e.members.count(stack[j]) > 0;
  if (!here) return false;
  if (i + 1 == pattern.size()) return !at_leaf || j + 1 == stack.size();
  return naive_match_from(pattern, i + 1, stack, j + 1, at_leaf);
}

// The stack satisfies the pattern somewhere (cum), or with its last element at the leaf (base).
inline bool naive_satisfies(const NaivePattern& pattern, const Context& stack, bool at_leaf) {
  for (std::size_t j = 0; j < stack.size(); ++j)
    if (naive_match_from(pattern, 0, stack, j, at_leaf)) return true;
  return false;
}

// The nodes whose own cost a pattern's cum (at_leaf false) or base (at_leaf true) counts.
inline std::set<Context> naive_pattern_nodes(const NaiveProfile& naive, const NaivePattern& pattern, bool at_leaf) {
  std::set<Context> nodes;
  for (const auto& [context, cost] : naive.nodes())
    if (naive_satisfies(pattern, context, at_leaf)) nodes.insert(context);
  return nodes;
}

}  // namespace bn::calltree::testing
