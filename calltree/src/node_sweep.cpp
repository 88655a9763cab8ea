#include "node_sweep.h"

#include <functional>
#include <queue>
#include <utility>

namespace bn::calltree::sweep {

const NodeId* gallop(const NodeId* first, const NodeId* last, NodeId value) {
  if (first == last || *first >= value) return first;
  // Invariant: *lo < value.
  const NodeId* lo = first;
  std::size_t step = 1;
  for (;;) {
    const auto remaining = static_cast<std::size_t>(last - lo);
    if (step >= remaining) return std::lower_bound(lo + 1, last, value);
    if (lo[step] >= value) return std::lower_bound(lo + 1, lo + step, value);
    lo += step;
    step *= 2;
  }
}

std::vector<NodeId> outermost(const CallTree& tree, std::span<const std::span<const NodeId>> lists) {
  struct Cursor {
    const NodeId* at;
    const NodeId* end;
  };
  std::vector<Cursor> cursors;
  cursors.reserve(lists.size());
  for (auto list : lists)
    if (!list.empty()) cursors.push_back({list.data(), list.data() + list.size()});

  // Min-heap of (head value, cursor index).
  using Head = std::pair<NodeId, std::size_t>;
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (std::size_t i = 0; i < cursors.size(); ++i) heads.push({*cursors[i].at, i});

  std::vector<NodeId> result;
  NodeId covered_end = 0;  // end of the last outermost subtree; nodes below it are inside it
  while (!heads.empty()) {
    const auto [n, i] = heads.top();
    heads.pop();
    if (n >= covered_end) {
      result.push_back(n);
      covered_end = tree.subtree_end(n);
    }
    // Every remaining node of this list below covered_end is inside the current subtree.
    Cursor& c = cursors[i];
    c.at = gallop(c.at + 1, c.end, covered_end);
    if (c.at != c.end) heads.push({*c.at, i});
  }
  return result;
}

iface::Amount sum_cost(const CallTree& tree, std::span<const NodeId> nodes) {
  iface::Amount sum = 0;
  for (NodeId n : nodes) sum += tree.cost(n);
  return sum;
}

iface::Amount sum_cum_cost(const CallTree& tree, std::span<const NodeId> nodes) {
  iface::Amount sum = 0;
  for (NodeId n : nodes) sum += tree.cum_cost(n);
  return sum;
}

void sort_unique(std::vector<NodeId>& nodes) {
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

}  // namespace bn::calltree::sweep
