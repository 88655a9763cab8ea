#include "focus_paths.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace bn::flame {
namespace {

using calltree::CallTree;
using calltree::MethodId;
using calltree::NodeId;

std::optional<NodeId> child_with(const CallTree& tree, NodeId n, MethodId m) {
  for (const NodeId c : tree.children(n))
    if (tree.method(c) == m) return c;
  return std::nullopt;
}

}  // namespace

std::vector<FocusPath> focus_paths(const CallTree& tree, std::span<const std::string> calls) {
  std::vector<MethodId> methods;
  for (const std::string& name : calls) {
    const std::optional<MethodId> m = tree.find_method(name);
    if (!m) return {};
    methods.push_back(*m);
  }
  std::vector<FocusPath> paths;
  // Along nodes with the path through them, for the split of exposed nodes.
  std::vector<std::pair<NodeId, std::uint32_t>> along;
  for (const NodeId root : tree.nodes_of(methods.front())) {
    std::vector<NodeId> nodes{root};
    for (std::size_t j = 1; j < methods.size(); ++j) {
      const std::optional<NodeId> next = child_with(tree, nodes.back(), methods[j]);
      if (!next) break;
      nodes.push_back(*next);
    }
    if (nodes.size() != methods.size()) continue;
    for (const NodeId n : nodes) along.emplace_back(n, static_cast<std::uint32_t>(paths.size()));
    paths.push_back({.root = root, .final = nodes.back()});
  }
  // Outermost finals: sorted by preorder, a final inside the last outermost one's subtree is not.
  std::vector<std::uint32_t> by_final(paths.size());
  for (std::uint32_t i = 0; i < by_final.size(); ++i) by_final[i] = i;
  std::sort(by_final.begin(), by_final.end(),
            [&](std::uint32_t x, std::uint32_t y) { return paths[x].final < paths[y].final; });
  std::vector<NodeId> outer;  // increasing
  for (const std::uint32_t i : by_final) {
    FocusPath& p = paths[i];
    if (!outer.empty() && tree.is_descendant(p.final, outer.back())) continue;
    p.outermost = true;
    p.weight += tree.cum_cost(p.final);
    outer.push_back(p.final);
  }
  // Along nodes outside every outermost final subtree, once each, to the first path through them.
  std::sort(along.begin(), along.end());
  for (std::size_t k = 0; k < along.size(); ++k) {
    if (k > 0 && along[k].first == along[k - 1].first) continue;
    const NodeId n = along[k].first;
    auto it = std::upper_bound(outer.begin(), outer.end(), n);
    if (it != outer.begin() && (*(it - 1) == n || tree.is_descendant(n, *(it - 1)))) continue;
    paths[along[k].second].weight += tree.cost(n);
  }
  return paths;
}

}  // namespace bn::flame
