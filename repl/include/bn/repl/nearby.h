#pragma once
// "Nearby" summaries of the current summary (seed 004 sec. 2.3, `select`): its 1-method top and
// bottom extensions and its trimmings, either all of them or zoomed.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/repl/suggest.h"

namespace bn::repl {

enum class NearbyKind { kTopExtensions, kBottomExtensions, kTrimTop, kTrimBottom };
inline constexpr NearbyKind kNearbyKinds[] = {NearbyKind::kTopExtensions, NearbyKind::kBottomExtensions,
                                              NearbyKind::kTrimTop, NearbyKind::kTrimBottom};

std::string_view nearby_kind_name(NearbyKind kind);  // "top extensions", ...
std::string_view nearby_kind_key(NearbyKind kind);   // "top_extensions", ... (JSON)

// The summaries one construction step away from s, sorted by |cum| descending.
std::vector<iface::Summary> one_step(iface::Profile& profile, iface::Summary s, NearbyKind kind);

// Zooming, sec. 2.3:
//   Zoom(s, c) = ZoomRec(s, c·|cum_of(s)|)
//   ZoomRec(s, C): T := candidates of s by |cum_of| descending; T_z := the fewest first N > 0
//   with |total_cum_of(T_z)| >= C, or empty if no N reaches C; if |T_z| = 1 zoom through it
//   (ZoomRec(first(T_z), C)), else return T_z.
// As ../shared/GUIDE.md sec. 2 requires, a chain that runs out of candidates after zooming
// through at least one summary ends on the last summary reached rather than on an empty list:
// the user was "almost certain to choose" it, so it must stay selectable.
// Returns the first `limit` of the result, in one_step's order, and how many more there are;
// only the ones returned are built as summaries.
Shortlist zoom(iface::Profile& profile, iface::Summary s, NearbyKind kind, const iface::Rational& cutoff,
               std::size_t limit = SIZE_MAX);

struct NearbyGroup {
  NearbyKind kind;
  std::vector<iface::Summary> summaries;  // the first `limit` by |cum|
  std::size_t more = 0;                   // how many were left out
};

// All four groups, zoomed or not, in the order kNearbyKinds lists them, each cut to `limit`.
// Unzoomed, only the listed ones are ranked (a partial sort), so the cost of ranking grows
// with the neighbourhood only linearly and the rows rendered not at all.
std::vector<NearbyGroup> nearby(iface::Profile& profile, iface::Summary s, bool zoomed, const iface::Rational& cutoff,
                                std::size_t limit);

}  // namespace bn::repl
