#pragma once
// Suggesters (seed 004 sec. 2.3): ordered lists of starting summaries.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/search/settings.h"

namespace bn::search {

// The first entries of a ranking and how many were left out.
struct Shortlist {
  std::vector<iface::Summary> shown;
  std::size_t more = 0;
};

// The length-1 summaries ranked by |cum| (HighCum, for a top-down search) or |base| (HighBase,
// bottom-up). Absolute values because comparative profiles go negative (sec. 2.3, footnote 6).
// Ties keep a stable order: by the other metric's magnitude, then by method name. Only the first
// `limit` are returned (a partial sort, so asking for 10 of 156k methods does not sort them all).
// With `keep`, only the summaries it keeps are ranked (`set noise skip`: beyond_noise).
Shortlist suggest(iface::Profile& profile, Suggester suggester, std::size_t limit = SIZE_MAX,
                  const std::function<bool(iface::Summary)>& keep = {});

// False only for a summary whose difference the profile reports within sampling noise
// (Profile::noise, noise.h): what `set noise skip` keeps.
bool beyond_noise(iface::Profile& profile, iface::Summary s);

// False for a cost estimated from fewer than ten samples, which seed 000 sec. 5.1 calls within
// random noise; true for costs that are not sample counts (MetricInfo::is_sample_count).
bool reliable(iface::Profile& profile, iface::Amount cost);

// Any summaries ranked as `suggest` ranks the methods (aspects, `find`'s matches).
Shortlist rank_summaries(iface::Profile& profile, const std::vector<iface::Summary>& summaries, Suggester suggester,
                         std::size_t limit = SIZE_MAX);

// Sorts summaries by |cum| descending, ties by |base| then call path: the order zooming and
// the listings of nearby summaries use.
void sort_by_cum(iface::Profile& profile, std::vector<iface::Summary>& summaries);

}  // namespace bn::search
