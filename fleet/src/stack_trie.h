#pragma once
// The ids a tree's stacks get in the store: a frame's id is a hash of its name, a node's id a
// hash of its parent's id and its frame's id (the root's is 0), so the same call stack has the
// same id in every recording, and a stack is named by its last node. 64-bit XXH3: among ten
// million distinct stacks the chance of any collision is about 3 in a million (docs/fleet.md).

#include <cstdint>
#include <string_view>
#include <vector>

#include "bn/calltree/call_tree.h"

namespace bn::fleet::detail {

inline constexpr std::uint64_t kRootStack = 0;

std::uint64_t frame_id(std::string_view name);
std::uint64_t stack_id(std::uint64_t parent, std::uint64_t frame);

struct StackTrie {
  std::vector<std::uint64_t> frame_of_method;  // by method id
  std::vector<std::uint64_t> id;               // by node; id[root] = kRootStack
  // The nodes a stored profile needs: those with a nonzero cost under some metric and their
  // ancestors (the root excluded).
  std::vector<bool> kept;
};

StackTrie stack_trie(const calltree::CallTree& tree);

}  // namespace bn::fleet::detail
