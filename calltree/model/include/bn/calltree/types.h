#pragma once
// Basic identifiers shared by the call-tree model, its file format and its backends.

#include <cstdint>
#include <limits>

namespace bn::calltree {

// Index of a node in a CallTree. Nodes are numbered in preorder; node 0 is the synthetic root.
using NodeId = std::uint32_t;
// Index of an interned method name in a CallTree's string table.
using MethodId = std::uint32_t;
// Per-node cost in the profile's unit (samples, nanoseconds, instructions, calls). Exact integer.
using Cost = std::int64_t;

inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();
inline constexpr MethodId kNoMethod = std::numeric_limits<MethodId>::max();
inline constexpr NodeId kRootNode = 0;

// A node count above this is refused by every reader: NodeId must also hold subtree ends.
inline constexpr std::uint64_t kMaxNodes = std::numeric_limits<NodeId>::max() - 1;

}  // namespace bn::calltree
