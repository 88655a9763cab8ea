#pragma once
// A summary (seed 004 sec. 2.1): a call sequence plus the tree nodes that root it, as a cheap
// handle the backend that made it resolves. Equal call sequences give equal handles; handles
// stay valid for the life of the profile.

#include <compare>
#include <cstdint>

namespace bn::iface {

struct Summary {
  std::uint32_t id = 0;
  // clang-tidy 14 takes the 0 a defaulted <=> compares with for a null pointer constant.
  auto operator<=>(const Summary&) const = default;  // NOLINT(modernize-use-nullptr)
};

// An end of a call sequence: the top is its outermost call (the caller side, where
// top_extensions add a method), the bottom its innermost (the callee side).
enum class End { top, bottom };

inline const char* to_string(End end) { return end == End::top ? "top" : "bottom"; }

}  // namespace bn::iface
