#pragma once
// Suggesters (seed 004 sec. 2.3): ordered lists of starting summaries.

#include <vector>

#include "bn/iface/profile.h"
#include "bn/repl/settings.h"

namespace bn::repl {

// The length-1 summaries ranked by |cum| (HighCum, for a top-down search) or |base| (HighBase,
// bottom-up). Absolute values because comparative profiles go negative (sec. 2.3, footnote 6).
// Ties keep a stable order: by the other metric's magnitude, then by method name.
std::vector<iface::Summary> suggest(iface::Profile& profile, Suggester suggester);

// Sorts summaries by |cum| descending, ties by |base| then call path: the order zooming and
// the listings of nearby summaries use.
void sort_by_cum(iface::Profile& profile, std::vector<iface::Summary>& summaries);

}  // namespace bn::repl
