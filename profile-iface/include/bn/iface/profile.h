#pragma once
// The profile interface of seed 004 sec. 2.1 (Fig. 3). The REPL, suggesters and zooming know
// only this class; every backend (one call tree, A minus B, typed-time views) implements it.
//
// A backend must implement the REQUIRED operations: the paper's twelve plus three facts no
// display can do without. The OPTIONAL ones have exact defaults written on the required ones;
// a backend overrides them to be fast (fast paths) or to say more about its numbers (display
// facts). Costs are exact: Amount numerators over denominator() (amount.h).

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/iface/amount.h"
#include "bn/iface/call_pattern.h"
#include "bn/iface/extension_amounts.h"
#include "bn/iface/extension_union.h"
#include "bn/iface/extension_walk.h"
#include "bn/iface/metric_info.h"
#include "bn/iface/noise.h"
#include "bn/iface/side_by_side.h"
#include "bn/iface/summary.h"
#include "bn/iface/summary_set.h"

namespace bn::iface {

class Profile {
 public:
  virtual ~Profile() = default;

  // === REQUIRED: the operations of seed 004 Fig. 3 ==========================================
  // The call sequence of s, outermost first. Views live as long as the profile.
  virtual std::vector<std::string_view> path_of(Summary s) = 0;
  // One summary per method that occurs in the profile (length-1 call sequences).
  virtual std::vector<Summary> initial_summaries() = 0;
  // Methods m such that m :: path_of(s) labels at least one path. Sorted by name.
  virtual std::vector<std::string_view> top_extensions(Summary s) = 0;
  // Methods m such that path_of(s) @ [m] has at least one root. Sorted by name.
  virtual std::vector<std::string_view> bottom_extensions(Summary s) = 0;
  // The summary of m :: path_of(s); nullopt when that sequence has no root.
  virtual std::optional<Summary> extend_top(Summary s, std::string_view m) = 0;
  // The summary of path_of(s) @ [m]; nullopt when that sequence has no root.
  virtual std::optional<Summary> extend_bottom(Summary s, std::string_view m) = 0;
  // The summary without its first (trim_top) or last (trim_bottom) call; nullopt at length 1.
  virtual std::optional<Summary> trim_top(Summary s) = 0;
  virtual std::optional<Summary> trim_bottom(Summary s) = 0;
  // Metrics of sec. 2.2, numerators over denominator().
  virtual Amount base_of(Summary s) = 0;
  virtual Amount cum_of(Summary s) = 0;
  // Over the union of the paths of all summaries in S: a measurement is counted once however
  // many summaries reach it. The empty set gives 0.
  virtual Amount total_base_of(std::span<const Summary> S) = 0;
  virtual Amount total_cum_of(std::span<const Summary> S) = 0;

  // === REQUIRED: facts about the whole profile ==============================================
  // The length-1 summary of a method, if the method occurs.
  virtual std::optional<Summary> method_summary(std::string_view method) = 0;
  // The cost of the whole profile.
  virtual Amount total() = 0;
  virtual MetricInfo metric() = 0;

  // === OPTIONAL fast paths: the defaults are exact ==========================================
  // The summary of a call sequence given by name; nullopt when it is empty or has no root. The
  // default extends the first method's summary at the bottom a call at a time, building a
  // summary of every length up to the path's (O(k²) for a path of k calls); a backend may find
  // the sequence's roots at once.
  virtual std::optional<Summary> path_summary(std::span<const std::string_view> path);
  // Every m of the extensions of s at `end` with the cum and base of the extended summary, in
  // any order: what extend then cum_of/base_of give, without a handle per extension. `select`
  // ranks a neighbourhood of up to 10^5 extensions to list a few (sec. 2.3), so a backend may
  // compute them all in one pass instead of building every summary; the default builds them.
  virtual std::vector<ExtensionAmounts> extension_amounts(Summary s, End end);
  // top_extensions(s) without `other_than`, cut to its first `at_most` names when longer: a walk
  // up single callers (autolabel's trunk methods) asks only whether s has no other caller, one,
  // or more, and a hot method has 10^5. When the list is cut, which `at_most` names it keeps is
  // the backend's (a scan may stop at the first found); sorted by name either way.
  virtual std::vector<std::string_view> top_extensions_up_to(Summary s, std::size_t at_most,
                                                             std::string_view other_than);
  // An empty running union over the extensions of s at `end`; see ExtensionUnion.
  virtual std::unique_ptr<ExtensionUnion> extension_union(Summary s, End end) {
    return std::make_unique<ExtensionUnion>(*this, s, end);
  }
  // A walk from s through extensions at `end`, one step at a time; see ExtensionWalk.
  virtual std::unique_ptr<ExtensionWalk> extension_walk(Summary s, End end) {
    return std::make_unique<BuildingWalk>(*this, s, end);
  }
  // The set S, kept to be asked its overlaps; see SummarySet.
  virtual std::unique_ptr<SummarySet> summary_set(std::span<const Summary> S) {
    return std::make_unique<SummarySet>(*this, S);
  }
  // The set S, given an earlier set of this profile: when every member of `earlier` is in S (a
  // label that gained a summary), a backend may measure only what S adds. Exact either way.
  virtual std::unique_ptr<SummarySet> summary_set_from(SummarySet& earlier, std::span<const Summary> S) {
    (void)earlier;
    return summary_set(S);
  }
  // set.overlap(*other) of each of `others` (sets of this profile), in order: `labels` asks it
  // of a label that changed against every other label.
  virtual std::vector<Overlap> set_overlaps(SummarySet& set, std::span<SummarySet* const> others);
  // set_overlaps(grown, others) when `grown` is the set `earlier` plus the summary `added` (a
  // label that gained the summary just shown), given earlier's and added's overlaps with each of
  // `others`, in order. What a union counts is what either side counts, so a backend need only
  // measure what earlier and added both count against each other set (inclusion-exclusion:
  // overlap(E ∪ {s}, M) = overlap(E, M) + overlap(s, M) - what E, s and M all count). The
  // default measures grown afresh: exact either way.
  virtual std::vector<Overlap> grown_set_overlaps(SummarySet& grown, SummarySet& earlier, Summary added,
                                                  std::span<SummarySet* const> others,
                                                  std::span<const Overlap> earlier_with,
                                                  std::span<const Overlap> added_with) {
    (void)earlier, (void)added, (void)earlier_with, (void)added_with;
    return set_overlaps(grown, others);
  }
  // Every pair of `sets` (sets of this profile) whose overlap is not zero, by (first, second):
  // `labels` lists them. The default asks set_overlaps of each set against those after it,
  // |sets|²/2 overlaps; a backend may find the pairs that share anything in one pass.
  virtual std::vector<SetPairOverlap> pair_overlaps(std::span<SummarySet* const> sets);
  // overlap(s) of each of `sets` (sets of this profile), in order. The REPL asks it of every
  // label for each summary it details, so a backend may answer for all of them in one pass.
  virtual std::vector<Overlap> overlaps(Summary s, std::span<SummarySet* const> sets);

  // === OPTIONAL: call sequences with gaps and aspects (seed 000 sec. 2-3, call_pattern.h) ====
  // Every operation above accepts the summaries these return: path_of shows gaps as ".." and
  // aspects as ":name", extensions add one method immediately at an end, trimming drops an end
  // call (and a gap left at that end), and total_*_of count each measurement once across plain
  // and pattern summaries alike, so overlap and coverage work on them unchanged.
  // The summary of p; nullopt when no measurement satisfies it. A plain p gives the summary of
  // its methods. The default knows plain sequences only and throws bn::Error for the others.
  virtual std::optional<Summary> pattern_summary(const CallPattern& p);
  // The sequence of s, aspects with their definitions. The default reads path_of as methods.
  virtual CallPattern pattern_of(Summary s) { return plain_pattern(path_of(s)); }
  // The extended downward refinement of s (seed 000 sec. 2): every method x such that s;..;x
  // is satisfied somewhere, with the cum and base of s;..;x, in any order. The default builds
  // s;..;x for every method of the profile.
  virtual std::vector<ExtensionAmounts> gap_extensions(Summary s);
  // An empty running union over the gap extensions of s (s;..;x), each added as gap_extensions
  // names it. Zooming on `refine below` unites a prefix of 10^5 of them, so a backend may keep
  // the union over its own lists; the default builds each and asks total_cum_of.
  virtual std::unique_ptr<ExtensionUnion> gap_extension_union(Summary s);
  // The upward split refinement of s = P1;..;P2 at the gap with index `gap` of pattern_of(s)
  // (refinements.h checks that it is one): P1;..;x;P2 for every caller x of P2 (top_extensions
  // of P2 alone) that is satisfied somewhere, in that order. The default builds each, a
  // pattern_summary per caller; a backend may measure them all at once.
  virtual std::vector<Summary> upward_splits(Summary s, std::size_t gap);
  // An empty running union over the upward split of s at `gap`, each P1;..;x;P2 added by its x;
  // as gap_extension_union, for zooming on `refine split`.
  virtual std::unique_ptr<ExtensionUnion> split_union(Summary s, std::size_t gap);

  // === OPTIONAL display facts: the defaults fit a profile of one run ========================
  // What percentages are of, and its name in "12.5% of total": total() by default. A
  // comparative profile normalised so that the difference sums to 0 has no such total and
  // gives A's instead.
  struct PercentBase {
    Amount amount = 0;
    std::string name;
  };
  virtual PercentBase percent_base() { return {total(), "total"}; }
  // Common denominator of every Amount this profile returns. Positive.
  virtual Amount denominator() { return 1; }
  // True when no measurement in the profile is negative, so total_cum_of can only grow as
  // summaries are added to a set (zooming then skips prefixes whose cums sum below its cutoff).
  // Comparative profiles (A minus B) are not.
  virtual bool costs_never_negative() { return false; }
  // Per-side values of s for a profile that compares two runs; nullopt for a profile of one run.
  virtual std::optional<SideBySide> sides(Summary /*s*/) { return std::nullopt; }
  // Whether s's cum, a difference of sampled runs, exceeds sampling noise (noise.h); nullopt for
  // a profile of one run or of costs that are not sample counts.
  virtual std::optional<Noise> noise(Summary /*s*/) { return std::nullopt; }
  // The same for the profile's total.
  virtual std::optional<Noise> total_noise() { return std::nullopt; }

  // === The paper's operations with the end chosen at run time (not virtual) ================
  std::vector<std::string_view> extensions(Summary s, End end) {
    return end == End::top ? top_extensions(s) : bottom_extensions(s);
  }
  std::optional<Summary> extend(Summary s, End end, std::string_view m) {
    return end == End::top ? extend_top(s, m) : extend_bottom(s, m);
  }
  std::optional<Summary> trim(Summary s, End end) { return end == End::top ? trim_top(s) : trim_bottom(s); }
};

}  // namespace bn::iface
