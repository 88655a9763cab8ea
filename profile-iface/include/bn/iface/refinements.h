#pragma once
// The refinement profiles of seed 000 sec. 2 that reach beyond one frame, written once on the
// profile interface so every backend has them.

#include <cstddef>
#include <vector>

#include "bn/iface/profile.h"

namespace bn::iface {

// The extended downward refinement of s: s;..;x for every x of gap_extensions(s), built as
// summaries, in gap_extensions' order.
std::vector<Summary> extended_downward(Profile& p, Summary s);

// The upward split refinement of s = P1;..;P2 at the gap with index `gap` of pattern_of(s):
// P1;..;x;P2 for every method x whose sequence is satisfied somewhere (Profile::upward_splits).
// Throws bn::Error when that element of s is no gap.
std::vector<Summary> upward_split(Profile& p, Summary s, std::size_t gap);

}  // namespace bn::iface
