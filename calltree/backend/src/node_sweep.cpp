#include "node_sweep.h"

#include <bit>
#include <boost/sort/spreadsort/integer_sort.hpp>
#include <cstdint>
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

namespace {

// The outermost nodes of the union of two increasing lists. After each node is emitted both
// cursors gallop past its subtree, so nested runs cost O(log run) and the next head is
// outermost: it lies after every subtree emitted so far, and ancestors come first in preorder.
std::vector<NodeId> outermost_pair(const CallTree& tree, std::span<const NodeId> a, std::span<const NodeId> b) {
  std::vector<NodeId> out;
  const NodeId *pa = a.data(), *ea = a.data() + a.size();
  const NodeId *pb = b.data(), *eb = b.data() + b.size();
  while (pa != ea || pb != eb) {
    const NodeId n = (pb == eb || (pa != ea && *pa <= *pb)) ? *pa : *pb;
    out.push_back(n);
    const NodeId end = tree.subtree_end(n);
    pa = gallop(pa, ea, end);
    pb = gallop(pb, eb, end);
  }
  return out;
}

// The same for many lists at once: mark every listed node in a bitmap of the tree, then jump
// from each marked node to the end of its subtree. O(T + n / 64) for T listed nodes.
std::vector<NodeId> outermost_by_bitmap(const CallTree& tree, std::span<const std::span<const NodeId>> lists) {
  std::vector<std::uint64_t> bits((tree.node_count() + 63) / 64, 0);
  for (auto list : lists)
    for (NodeId n : list) bits[n / 64] |= std::uint64_t{1} << (n % 64);
  std::vector<NodeId> out;
  std::size_t from = 0;  // the next node that can be outermost
  for (;;) {
    std::size_t word = from / 64;
    if (word >= bits.size()) return out;
    std::uint64_t pending = bits[word] & (~std::uint64_t{0} << (from % 64));
    while (pending == 0) {
      if (++word == bits.size()) return out;
      pending = bits[word];
    }
    const auto n = static_cast<NodeId>(word * 64 + static_cast<std::size_t>(std::countr_zero(pending)));
    out.push_back(n);
    from = tree.subtree_end(n);
  }
}

}  // namespace

std::vector<NodeId> outermost(const CallTree& tree, std::span<const std::span<const NodeId>> lists) {
  std::size_t total = 0;
  for (auto list : lists) total += list.size();
  // Many nodes in many lists: a pass over a bitmap beats log(lists) merge rounds.
  if (lists.size() > 2 && total * std::bit_width(lists.size()) > tree.node_count() / 32)
    return outermost_by_bitmap(tree, lists);
  // Pairwise rounds (a merge tree) rather than one heap: with many short interleaved lists a
  // heap touches every list once per outermost subtree, while merged lists shrink as they go.
  std::vector<std::vector<NodeId>> level;
  for (std::size_t i = 0; i < lists.size(); i += 2)
    level.push_back(outermost_pair(tree, lists[i], i + 1 < lists.size() ? lists[i + 1] : std::span<const NodeId>()));
  while (level.size() > 1) {
    std::vector<std::vector<NodeId>> next;
    for (std::size_t i = 0; i < level.size(); i += 2)
      next.push_back(outermost_pair(tree, level[i], i + 1 < level.size() ? level[i + 1] : std::vector<NodeId>()));
    level = std::move(next);
  }
  return level.empty() ? std::vector<NodeId>() : std::move(level.front());
}

void outermost_of_sorted(const CallTree& tree, std::span<const NodeId> nodes, std::vector<NodeId>& out) {
  out.clear();
  const NodeId* last = nodes.data() + nodes.size();
  for (const NodeId* at = nodes.data(); at != last; at = gallop(at + 1, last, tree.subtree_end(out.back())))
    out.push_back(*at);
}

iface::Amount sum_cost(const CallTree& tree, std::span<const NodeId> nodes) {
  iface::Amount sum = 0;
  for (NodeId n : nodes) sum += tree.cost(n);
  return sum;
}

iface::Amount sum_base_cost(const CallTree& tree, std::span<const NodeId> nodes) {
  iface::Amount sum = 0;
  for (NodeId n : nodes) sum += tree.base_cost(n);
  return sum;
}

iface::Amount sum_cum_cost(const CallTree& tree, std::span<const NodeId> nodes) {
  iface::Amount sum = 0;
  for (NodeId n : nodes) sum += tree.cum_cost(n);
  return sum;
}

void append_path(const CallTree& tree, NodeId final_node, std::size_t length, std::vector<NodeId>& out) {
  out.resize(out.size() + length);
  NodeId n = final_node;
  for (auto it = out.rbegin(); it != out.rbegin() + static_cast<std::ptrdiff_t>(length); ++it, n = tree.parent(n))
    *it = n;
}

void sort_unique(std::vector<NodeId>& nodes) {
  if (!std::is_sorted(nodes.begin(), nodes.end())) boost::sort::spreadsort::integer_sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

}  // namespace bn::calltree::sweep
