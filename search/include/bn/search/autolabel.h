#pragma once
// Automatic bottleneck sets: the search the expert of seed 004 sec. 3.1 did by hand in
// 151 commands, done with the REPL's own moves on the profile interface alone. Candidates are the
// summaries the paper's two searches stop at (sec. 2.3): from each of the first suggestions of
// HighBase and HighCum, zooming through callers (bottom-up) or callees (top-down) until the cost
// splits. Of those, it proposes at most N that are pairwise non-overlapping (cum_overlap, sec.
// 2.1, is 0 for every pair and with every summary already labelled), not too general (below), and
// that together cover as much of the profile's cost as it can find. docs/autolabel.md states the
// algorithm, what it guarantees and its limits.
//
// Too general: a summary whose innermost method is a trunk method. A method is a trunk method
// when it has no caller in the profile (a stack's outermost frame: a thread's root, the program's
// entry point), or when its one caller (calls of its own name aside: overloads) is a trunk method
// whose cost it carries, the cutoff share of it as zooming would (Thread.run → Worker.run →
// runWorker, main → App.run); in a comparison, with both sides' costs. Such a summary's cum is
// (nearly) the whole of the threads under it: nothing to act on. Below the first method that
// splits its caller's cost, nothing is trunk.
// Too general as well: a summary that passes its cost through (its own cost under the rest of
// the cutoff share, and one callee holding the cutoff share, as zooming would pass through it),
// and one of negligible own cost whose cost lies in more precise candidates below it, the
// cutoff share of it: the trunk of what it calls (a transformation's phase, a recursive
// dispatcher), where those below name the code that spends the cost. And a summary of typed-time
// pseudo-methods alone ([:RUN], [:MONITOR;:THREAD C] in a view of seed 000 sec. 4): a kind of
// time, not code; the zooms from it are candidates. A candidate counts no trunk method's own
// cost: trunk methods at its front whose own samples it counts are trimmed off.
//
// Nor is a summary that ends in an idle wait proposed (idle_waits.h: Object.wait, :WAIT, ...):
// time spent waiting for work is no code to change.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/search/settings.h"

namespace bn::search {

// How a candidate was reached from a suggestion.
enum class AutolabelMove {
  kSuggestion,  // the suggested method itself
  kCallers,     // zoomed through top extensions until no one caller holds the cutoff (bottom-up)
  kCallees,     // zoomed through bottom extensions likewise (top-down)
};

struct AutolabelOrigin {
  Suggester suggester = Suggester::kHighBase;
  std::size_t rank = 0;  // the suggestion's number in `suggest`
  iface::Summary suggestion;
  AutolabelMove move = AutolabelMove::kSuggestion;
};

struct AutolabelProposal {
  iface::Summary summary;
  AutolabelOrigin origin;
  // total_cum_of of this proposal and every one before it: the coverage so far.
  iface::Amount covered = 0;
  // The heaviest candidate not proposed that overlaps this one and weighs at least as much:
  // proposing it instead would have covered less. Each is named once, at the heaviest proposal
  // it overlaps.
  std::optional<iface::Summary> instead_of;
};

struct AutolabelOptions {
  std::size_t count = 15;  // N: at most this many proposals
  iface::Rational cutoff{19, 20};
  // Summaries already labelled: proposals overlap none of them.
  std::vector<iface::Summary> labelled;
  // Candidates it rejects are not proposed, nor suggestions it rejects searched from. Unset: the
  // noise of suggest.h, which may be chance and is nothing to explain: a difference within
  // sampling noise (beyond_noise; whatever `set noise` shows) or a cum of under ten samples
  // (reliable).
  std::function<bool(iface::Summary)> keep;
  // The sign of the cost to explain: 0 the sign of the profile's total (autolabel_weight), +1 or
  // -1 that sign whatever the total, so a comparison's regressions and its improvements can each
  // be explained (`bottlenecks diff` asks for both).
  int direction = 0;
};

// Why candidates of positive weight were not proposed; each is counted once, under the first
// reason in this order.
struct AutolabelSkipped {
  std::size_t within_noise = 0;  // candidates `keep` rejected: noise
  // A trunk method (also suggestions), a pass-through, typed time alone; and last, among the
  // candidates left, a summary whose cost lies in more precise candidates below it.
  std::size_t too_general = 0;
  std::size_t idle_waits = 0;          // ends_in_idle_wait (idle_waits.h)
  std::size_t overlapping_labels = 0;  // overlapping a labelled summary
};

struct AutolabelResult {
  std::vector<AutolabelProposal> proposals;  // heaviest first
  std::size_t candidates = 0;                // distinct candidates of positive weight proposable
  AutolabelSkipped skipped;
  // True when the search proved the proposals the heaviest non-overlapping set of at most N
  // candidates; false when it stopped at its step budget with the best set found by then.
  bool best_of_candidates = true;
};

struct AutolabelCandidate {
  iface::Summary summary;
  AutolabelOrigin origin;
  iface::Amount weight = 0;  // autolabel_weight, > 0
};

class AutolabelOverlaps;  // autolabel_overlaps.h
struct AutolabelCandidates {
  std::vector<AutolabelCandidate> list;  // distinct, heaviest first (sort_by_cum's order)
  AutolabelSkipped skipped;
  // The overlaps of pairs of candidates measured while filtering them, for the search to reuse.
  std::shared_ptr<AutolabelOverlaps> overlaps;
};

// Where autolabel's searches stop, each summary once with the first way it was reached, before
// any is weighed or filtered: they depend on the options' count, cutoff and keep alone, so a
// comparison's regressions and improvements (`direction`, `labelled`) are chosen from one search.
class AutolabelTrunk;  // the trunk methods decided so far (autolabel_candidates.cpp)
struct AutolabelReached {
  std::vector<std::pair<iface::Summary, AutolabelOrigin>> list;  // in the order reached
  std::size_t trunk_starts = 0;                                  // suggestions that are trunk methods
  // Decided while searching, and by each sign's filter in turn: a method's walk up its callers
  // lists them in every run.
  std::shared_ptr<AutolabelTrunk> trunk;
};
AutolabelReached autolabel_reached(iface::Profile& profile, const AutolabelOptions& options);

// The candidates autolabel chooses among (autolabel_candidates.cpp), with what it filtered out;
// `reached` is autolabel_reached of the same profile and count, cutoff and keep.
AutolabelCandidates autolabel_candidates(iface::Profile& profile, const AutolabelOptions& options,
                                         const AutolabelReached& reached);
AutolabelCandidates autolabel_candidates(iface::Profile& profile, const AutolabelOptions& options);

// Deterministic: the same profile and options give the same proposals.
AutolabelResult autolabel(iface::Profile& profile, const AutolabelOptions& options, const AutolabelReached& reached);
AutolabelResult autolabel(iface::Profile& profile, const AutolabelOptions& options);

// The weight autolabel maximises, the cost a summary adds to coverage: its cum, taken in the
// direction of the profile's total (a comparison whose total difference is negative is explained
// by summaries that are negative too); |cum| when the total is 0. A `direction` of +1 or -1
// (AutolabelOptions::direction) takes that sign instead of the total's.
iface::Amount autolabel_weight(iface::Profile& profile, iface::Summary s, int direction = 0);

}  // namespace bn::search
