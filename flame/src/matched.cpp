#include "bn/flame/matched.h"

namespace bn::flame {

std::size_t FlamePart::subtree_end(std::size_t i) const {
  std::size_t end = i + 1;
  while (end < size() && depth[end] > depth[i]) ++end;
  return end;
}

Amount matched_value(const FlameGraph& graph, const std::function<bool(std::string_view)>& matches) {
  const FlamePart& part = graph.callees;
  Amount sum = 0;
  for (std::size_t i = 0; i < part.size();) {
    if (matches(graph.names[part.name[i]])) {
      // Everything below is in this frame's value already.
      sum += part.value(i);
      i = part.subtree_end(i);
    } else {
      ++i;
    }
  }
  return sum;
}

}  // namespace bn::flame
