#pragma once
// Generic helpers written once on the profile interface (seed 004 sec. 2.1, "cum_ovl").

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "bn/iface/profile.h"

namespace bn::iface {

// cum(s) + total_cum(S) - total_cum(S ∪ {s}): the cost s shares with the summaries in S.
Amount cum_overlap(Profile& p, Summary s, std::span<const Summary> S);
// The same with base metrics.
Amount base_overlap(Profile& p, Summary s, std::span<const Summary> S);

}  // namespace bn::iface
