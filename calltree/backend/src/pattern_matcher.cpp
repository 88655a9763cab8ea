#include "pattern_matcher.h"

#include <algorithm>
#include <string>

#include "bn/iface/error.h"

namespace bn::calltree {

using Kind = iface::PatternElement::Kind;

PatternMatcher::PatternMatcher(const CallTree& tree, const iface::CallPattern& pattern)
    : tree_(tree), matches_(tree.method_count(), 0) {
  iface::check_call_pattern(pattern);
  // A plain sequence may be longer than the bits of a state; its matches are searched by paths.
  const auto calls = std::count_if(pattern.elements.begin(), pattern.elements.end(),
                                   [](const iface::PatternElement& e) { return e.kind != Kind::gap; });
  if (static_cast<std::size_t>(calls) > iface::kMaxPatternCalls)
    throw Error("call sequence '" + pattern.text() + "': more than " + std::to_string(iface::kMaxPatternCalls) +
                " calls to match at once");
  std::uint32_t call = 0;
  std::uint64_t segment = 0;
  const auto close_segment = [&] {
    segment_calls_.push_back(segment);
    segment_first_.push_back(segment & -segment);             // lowest bit
    segment_last_.push_back(std::uint64_t{1} << (call - 1));  // highest bit
    segment = 0;
  };
  for (const iface::PatternElement& e : pattern.elements) {
    if (e.kind == Kind::gap) {
      gap_after_ |= std::uint64_t{1} << (call - 1);
      close_segment();
      continue;
    }
    const std::uint64_t bit = std::uint64_t{1} << call;
    if (e.kind == Kind::method) {
      if (const auto m = tree.find_method(e.name)) matches_[*m] |= bit;
    } else {
      for (MethodId m = 0; m < tree.method_count(); ++m)
        if (!tree.nodes_of(m).empty() && e.pattern->matches(tree.method_name(m))) matches_[m] |= bit;
    }
    segment |= bit;
    ++call;
  }
  close_segment();
  last_call_ = std::uint64_t{1} << (call - 1);
}

std::vector<bool> PatternMatcher::top_extension_methods() const {
  std::vector<bool> result(tree_.method_count(), false);
  // acc_*[d]: the OR of "starts" over the nodes of depth d visited since the last node of
  // depth d - 1, i.e. over the children (and their subtrees) of the node reached next above.
  std::vector<std::uint64_t> acc_children(2, 0), acc_below(2, 0);
  for (NodeId n = static_cast<NodeId>(tree_.node_count()); n-- > 1;) {
    const std::uint32_t d = tree_.depth(n);
    if (d + 1 >= acc_children.size()) {
      acc_children.resize((d + 1) * 2, 0);
      acc_below.resize((d + 1) * 2, 0);
    }
    const std::uint64_t children = acc_children[d + 1], below = acc_below[d + 1];
    acc_children[d + 1] = acc_below[d + 1] = 0;
    // Call i starts a match here if it matches this frame and the rest matches from the next
    // frame (an immediate call) or from any frame below (after a gap).
    const std::uint64_t starts =
        matches_[tree_.method(n)] & (last_call_ | ((children >> 1) & ~gap_after_) | ((below >> 1) & gap_after_));
    acc_children[d] |= starts;
    acc_below[d] |= starts | below;
    if ((starts & 1) && tree_.parent(n) != kRootNode) result[tree_.method(tree_.parent(n))] = true;
  }
  return result;
}

}  // namespace bn::calltree
