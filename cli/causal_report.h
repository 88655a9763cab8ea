#pragma once
// `causal` (docs/causal.md): the causal experiments of the recordings searched, analysed
// (bn_causal) against the cost of each target in the profile in force, as the REPL shows them.

#include <cstddef>
#include <string_view>

#include "bn/calltree/causal_data.h"
#include "bn/iface/profile.h"
#include "bn/search/causal_report.h"

namespace bn::cli {

// The report of `data` (the experiments of `recordings` files, pooled) at the progress point
// named `progress` (empty: the first), each target's cost share the cum of its summaries
// (overlap counted once) as a share of `profile`'s total. Throws bn::Error without experiments
// (search::kNoCausalExperiments) or for an unknown point, listing the recorded ones.
search::CausalReport causal_report(const calltree::CausalData& data, std::size_t recordings, iface::Profile& profile,
                                   std::string_view progress);

}  // namespace bn::cli
