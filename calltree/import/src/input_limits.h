#pragma once
// Limits every reader of calltree/import puts on hostile input, so that the work and
// memory of a read are bounded by the input's real size, whatever its format.

#include <cstddef>
#include <cstdint>

namespace bn::calltree {

// Real stacks are a few hundred frames.
inline constexpr std::size_t kMaxDepth = 65536;
// Inlined lines (pprof) and stack pools (JFR) let a few bytes name many frames; a legitimate
// profile makes far fewer than one call-tree node per input byte, so more than this many is
// refused as a hostile file.
inline constexpr std::uint64_t kMaxNodesPerByte = 8;

}  // namespace bn::calltree
