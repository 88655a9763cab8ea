#pragma once
// The causal profile of a recording (seed 003, JCoz; docs/causal.md): for each target, what a
// virtual speedup of it did to the program at one progress point (its curve), what speeding it
// up by about half would give (the summary band), flags that say how to read the curve, and the
// targets ranked by that summary.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "bn/calltree/causal_data.h"
#include "bn/causal/estimate.h"

namespace bn::causal {

// A range of virtual speedups, in percent, both ends included, pooled into one group.
struct Band {
  std::uint32_t low = 0;
  std::uint32_t high = 0;
  bool holds(std::uint32_t speedup) const { return speedup >= low && speedup <= high; }
};
// "If 50% faster": the speedups around one half pooled, so that a target's summary rests on
// several experiments of the usual 5% grid (40, 45, 50, 55, 60) rather than one point.
inline constexpr Band kSummaryBand{40, 60};
// Where the curve ends, against the summary band for a plateau.
inline constexpr Band kTopBand{80, 100};

enum class Flag : std::uint8_t { off_critical_path, plateau, contention, too_few };
inline constexpr Flag kAllFlags[] = {Flag::off_critical_path, Flag::plateau, Flag::contention, Flag::too_few};
// "off the critical path", "plateau", "contention", "too few experiments".
std::string_view flag_name(Flag flag);
// One line saying what the flag means for the user.
std::string_view flag_explanation(Flag flag);

struct CurvePoint {
  std::uint32_t speedup = 0;  // virtual speedup, percent
  Estimate estimate;          // the target's experiments at it against the baseline
};

struct TargetResult {
  std::uint32_t target = 0;       // index into CausalData::targets
  double cost_share = 0;          // as given to analyze
  Estimate summary;               // the experiments in kSummaryBand, pooled
  Estimate top;                   // those in kTopBand, pooled
  std::vector<CurvePoint> curve;  // one per virtual speedup the target was tried at, ascending
  std::vector<Flag> flags;        // in kAllFlags order
};

struct CausalAnalysis {
  std::size_t point = 0;                 // the progress point, an index into CausalData::points
  std::size_t baseline_experiments = 0;  // every target's experiments at speedup 0
  // Ranked: by summary estimate, descending; targets without one last; ties and those last by
  // cost share, descending, then by index.
  std::vector<TargetResult> targets;
};

// The analysis of `data` at progress point `point`. `cost_shares[t]` is target t's share of the
// sampled profile (0..1), which the flags weigh its gains against. Throws bn::Error when `point`
// or an experiment's target is out of range, or `cost_shares` is not one per target.
CausalAnalysis analyze(const calltree::CausalData& data, std::size_t point, std::span<const double> cost_shares);

// The flags of a target from its estimates (docs/causal.md, "Flags").
std::vector<Flag> flags_of(const TargetResult& result);

}  // namespace bn::causal
