#pragma once
// "Nearby" summaries of the current summary (seed 004 sec. 2.3, `select`): its 1-method top and
// bottom extensions and its trimmings, either all of them or zoomed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/search/listing.h"
#include "bn/search/suggest.h"

namespace bn::search {

// The last two are the refinements of seed 000 sec. 2 that reach through a gap: P;..;x for every
// x (extended downward) and P1;..;x;P2 at a gap of P (upward split). Each costs a pass over the
// profile per candidate built, so they are asked for (`refine`), not shown by every `select`.
enum class NearbyKind { kTopExtensions, kBottomExtensions, kTrimTop, kTrimBottom, kExtendedDownward, kUpwardSplit };
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
// As docs/repl.md "Zooming" states, a chain that runs out of candidates after zooming
// through at least one summary ends on the last summary reached rather than on an empty list:
// the user was "almost certain to choose" it, so it must stay selectable.
// Zooming stops at recursion: a single candidate that adds a method already in the sequence is
// returned, not zoomed through. Through a recursive method every step adds one more call of it
// and leaves the cum nearly unchanged, so the chain would be as long as the recursion is deep
// (10^4 steps over ever longer paths in a recursive-descent parser) and end on a path of
// thousands of calls of one method: the user is not "almost certain" to want each level.
// Returns the first `limit` of the result, in one_step's order, and how many more there are;
// only the ones returned are built as summaries.
// `gap`: for kUpwardSplit, the index in pattern_of(s) of the gap to split at.
struct Zoomed : Shortlist {
  std::string recursive_method;  // set when zooming stopped at a call of this method again
};
Zoomed zoom(iface::Profile& profile, iface::Summary s, NearbyKind kind, const iface::Rational& cutoff,
            std::size_t limit = SIZE_MAX, std::size_t gap = 0);

// Unzoomed lists longer than this are built as they are printed: the first row of 10^5 at once.
inline constexpr std::size_t kBuiltUpFront = 100;

struct NearbyGroup {
  NearbyKind kind;
  std::vector<iface::Summary> summaries;  // the first `limit` by |cum|, built
  std::size_t more = 0;                   // how many were left out
  // Instead of `summaries`, for a long list: the shown ones, built as they are printed.
  std::shared_ptr<Listing> listing;
  std::string recursive_method;  // zoomed: the chain stopped at a call of this method again
};

// A refinement of any kind, zoomed or not, cut to `limit` (kUpwardSplit at the gap `gap`).
// Unzoomed, a list of more than `built_up_front` extensions comes as a Listing.
NearbyGroup refinement(iface::Profile& profile, iface::Summary s, NearbyKind kind, bool zoomed,
                       const iface::Rational& cutoff, std::size_t limit, std::size_t gap = 0,
                       std::size_t built_up_front = kBuiltUpFront);

// All four groups, zoomed or not, in the order kNearbyKinds lists them, each cut to `limit`.
// Unzoomed, only the listed ones are ranked (a partial sort), so the cost of ranking grows
// with the neighbourhood only linearly and the rows rendered not at all.
std::vector<NearbyGroup> nearby(iface::Profile& profile, iface::Summary s, bool zoomed, const iface::Rational& cutoff,
                                std::size_t limit, std::size_t built_up_front = kBuiltUpFront);

}  // namespace bn::search
