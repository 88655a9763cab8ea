#include "stack_trie.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace bn::fleet::detail {

std::uint64_t frame_id(std::string_view name) { return XXH3_64bits(name.data(), name.size()); }

std::uint64_t stack_id(std::uint64_t parent, std::uint64_t frame) {
  const std::uint64_t both[2] = {parent, frame};
  const std::uint64_t id = XXH3_64bits(both, sizeof both);
  return id == kRootStack ? 1 : id;  // 0 names the root
}

StackTrie stack_trie(const calltree::CallTree& tree) {
  StackTrie trie;
  trie.frame_of_method.resize(tree.method_count());
  for (calltree::MethodId m = 0; m < tree.method_count(); ++m) trie.frame_of_method[m] = frame_id(tree.method_name(m));
  const std::size_t n = tree.node_count();
  trie.id.assign(n, kRootStack);
  trie.kept.assign(n, false);
  for (calltree::NodeId v = n; v-- > 1;) {
    bool costs = false;
    for (std::size_t k = 0; k < tree.metric_count() && !costs; ++k) costs = tree.metric_cost(k, v) != 0;
    if (costs || trie.kept[v]) {
      trie.kept[v] = true;
      trie.kept[tree.parent(v)] = true;
    }
  }
  trie.kept[calltree::kRootNode] = false;
  // Preorder: a parent's id is known before its children's.
  for (calltree::NodeId v = 1; v < n; ++v)
    trie.id[v] = stack_id(trie.id[tree.parent(v)], trie.frame_of_method[tree.method(v)]);
  return trie;
}

}  // namespace bn::fleet::detail
