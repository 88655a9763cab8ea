// Candidates of autolabel: the summaries where the searches of seed 004 sec. 2.3 stop. The
// expert's bottom-up search starts at a HighBase suggestion and extends at the top while one
// caller carries the cost; a top-down search starts at a HighCum suggestion and extends at the
// bottom likewise. Zooming is exactly that walk, so a candidate is where zooming stops.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "bn/base/interruption.h"
#include "bn/iface/overlap.h"
#include "bn/search/autolabel.h"
#include "bn/search/autolabel_overlaps.h"
#include "bn/search/idle_waits.h"
#include "bn/search/nearby.h"
#include "bn/search/suggest.h"

namespace bn::search {

// Trunk methods (autolabel.h), decided once per method by walking up single callers that call
// nothing else.
class AutolabelTrunk {
 public:
  AutolabelTrunk(iface::Profile& profile, const iface::Rational& cutoff) : profile_(profile), cutoff_(cutoff) {}

  bool contains(std::string_view method) {
    std::unordered_set<std::string_view> walked;  // a set: a walk up a deep chain is long
    std::string_view m = method;
    bool trunk = true;
    for (;;) {
      if (const auto known = known_.find(m); known != known_.end()) {
        trunk = known->second;
        break;
      }
      // A method seen twice on one walk is its own only caller (recursion): no other entry.
      if (!walked.insert(m).second) break;
      const std::optional<iface::Summary> s = profile_.method_summary(m);
      // A method calling itself (Java overloads share a name: compile(args) calls compile(args,
      // context)) is no choice of work: its other callers decide. Whether it has two is all the
      // walk asks.
      const std::vector<std::string_view> callers =
          s ? profile_.top_extensions_up_to(*s, 2, m) : std::vector<std::string_view>{};
      if (callers.empty()) break;
      // Not trunk: several callers, or a caller whose cost m does not carry (a choice of work).
      const std::optional<iface::Summary> caller = profile_.method_summary(callers.front());
      if (callers.size() > 1 || !caller || !carries(*s, *caller)) {
        trunk = false;
        break;
      }
      m = callers.front();
    }
    for (std::string_view w : walked) known_.emplace(w, trunk);
    return trunk;
  }

 private:
  // Whether `callee`, called only from `caller`, carries the cutoff share of the caller's cost,
  // as zooming would pass through it (sec. 2.3): a side call of 0.5% from main's one method does
  // not make it a choice of work.
  bool carries(iface::Summary callee, iface::Summary caller) {
    const iface::Amount whole = size_of(caller);
    return whole == 0 ? profile_.bottom_extensions(caller).size() <= 1
                      : iface::to_rational(size_of(callee)) >= cutoff_ * iface::to_rational(whole);
  }

  // How much of the program runs in s. Of a comparison, both sides' cums: its A − B nets the
  // changes of a caller's callees, so a caller whose callees grew and shrank by about as much
  // would be carried by any callee that changed (the one regression of a run is a leaf of
  // main, and main's change is that leaf's minus the rest's), and the regression would be
  // taken for trunk. Trunk is where the program runs, whichever side.
  iface::Amount size_of(iface::Summary s) {
    if (const auto sides = profile_.sides(s)) return iface::abs_amount(sides->a_cum) + iface::abs_amount(sides->b_cum);
    return iface::abs_amount(profile_.cum_of(s));
  }

  iface::Profile& profile_;
  iface::Rational cutoff_;
  std::map<std::string_view, bool> known_;
};

namespace {

// Suggestions taken from each suggester per proposal asked for: enough that the best N are
// rarely missed, few enough that the pairwise overlaps stay cheap (docs/autolabel.md, "Limits").
constexpr std::size_t kSuggestionsPerProposal = 2;

// Whether every method of the sequence is a pseudo-method of a typed-time view (views/pseudo_names.h:
// :RUN, :LOAD, :PRIO, :MONITOR, :WAIT, :THREAD CLASS, :UNKNOWN; no Java frame begins with ':'). Such
// a summary names a kind of time, or whom it was spent behind, not code to change: in a Server View
// [:RUN] is the whole profile. Zooming from it reaches the code (the callers that ran, the
// holder's frames), so it is still a start, never a proposal.
bool typed_time_only(const std::vector<std::string_view>& path) {
  return std::all_of(path.begin(), path.end(), [](std::string_view m) { return m.starts_with(':'); });
}

// Where zooming from s at one end stops: the last summary zoomed through when the chain ran out,
// the summary whose candidates split the cost or whose one candidate calls a method of it again
// (recursion), or s itself when nothing concentrates it.
iface::Summary zoom_stop(iface::Profile& profile, iface::Summary s, NearbyKind kind, const iface::Rational& cutoff) {
  const Zoomed zoomed = zoom(profile, s, kind, cutoff, 1);
  if (zoomed.shown.empty()) return s;
  // a chain that ran out ends on its last summary
  if (zoomed.more == 0 && zoomed.recursive_method.empty()) return zoomed.shown.front();
  const iface::End end = kind == NearbyKind::kTopExtensions ? iface::End::top : iface::End::bottom;
  return *profile.trim(zoomed.shown.front(), end);  // the summary the split candidates extend
}

// Whether s's own cost is under the rest of the cutoff share of its cum: its cost is in callees.
// Its own cost is its base and the typed time below it (a view's :RUN, :WAIT, ... below a
// method, and who held the monitor below :MONITOR): a kind of time is no callee.
bool own_cost_negligible(iface::Profile& profile, iface::Summary s, const iface::Rational& cutoff) {
  const iface::Rational whole = iface::to_rational(iface::abs_amount(profile.cum_of(s)));
  if (whole == 0) return false;
  iface::Amount own = iface::abs_amount(profile.base_of(s));
  for (const iface::ExtensionAmounts& e : profile.extension_amounts(s, iface::End::bottom))
    if (e.method.starts_with(':')) own += iface::abs_amount(e.cum);
  return iface::to_rational(own) <= (1 - cutoff) * whole;
}

// Whether s passes its cost through to one callee: its own cost is negligible and one callee
// that is code (not a kind of time) holds the cutoff share, so zooming would pass through it
// (sec. 2.3): the longer summary names the same cost more precisely. Its own cost is checked
// first because the extension's cum counts s's own nodes (along, sec. 2.2): a loop with heavy
// own cost that calls c now and then is no pass-through.
bool passes_through(iface::Profile& profile, iface::Summary s, const iface::Rational& cutoff) {
  if (!own_cost_negligible(profile, s, cutoff)) return false;
  const iface::Rational whole = iface::to_rational(iface::abs_amount(profile.cum_of(s)));
  const std::string_view innermost = profile.path_of(s).back();
  for (const iface::ExtensionAmounts& e : profile.extension_amounts(s, iface::End::bottom))
    // A call of its own name (an overload, or recursion) is the same code, as for trunk methods.
    if (!e.method.starts_with(':') && e.method != innermost &&
        iface::to_rational(iface::abs_amount(e.cum)) >= cutoff * whole)
      return true;
  return false;
}

// s without the trunk methods at its front whose own samples it counts. A path's every node is
// along it (sec. 2.2), so zooming through callers up to a thread's root adds the root's own
// samples: [main;reflect;..;getClassLoader] counted main's loop, 165 of its 177 samples in
// samples/security. Trunk methods of no own cost stay, naming the context ([Sender.run;
// Mailbox.take;Object.wait;:MONITOR] in a Thread View). Of the trimmings of the trunk prefix,
// the longest of the cum of the shortest. The shortest is built first and the others from the
// longest on, each from its path at once: a zoom down a chain of D distinct methods, all of
// them trunk, ends on a summary whose trimmings one by one would cost O(D²).
iface::Summary without_trunk_cost(iface::Profile& profile, AutolabelTrunk& trunk, iface::Summary s) {
  const std::vector<std::string_view> path = profile.path_of(s);
  // typed_from[t]: path[t..] is typed time alone, which no trimming may leave.
  std::vector<char> typed_from(path.size() + 1, 1);
  for (std::size_t t = path.size(); t-- > 0;) typed_from[t] = typed_from[t + 1] && path[t].starts_with(':') ? 1 : 0;
  std::size_t trunk_prefix = 0;  // the calls the shortest trimming drops
  while (path.size() - trunk_prefix >= 2 && trunk.contains(path[trunk_prefix]) && !typed_from[trunk_prefix + 1])
    ++trunk_prefix;
  const auto trimmed = [&](std::size_t t) {
    return t == 0 ? s : *profile.path_summary(std::span(path).subspan(t));  // a suffix of s's path occurs
  };
  const iface::Amount cum = profile.cum_of(trimmed(trunk_prefix));
  for (std::size_t t = 0;; ++t)
    if (const iface::Summary c = trimmed(t); profile.cum_of(c) == cum) return c;
}

// A part of a summary of positive weight in the direction of its weight: a positive weight is
// |cum| (autolabel_weight), so on a comparison of negative cum the negative part counts.
iface::Amount directed(iface::Amount part, iface::Amount cum) { return cum < 0 ? -part : part; }

// The innermost method of a path that is code: not typed time (a view's :RUN, :MONITOR, ...,
// seed 000 sec. 4); empty when it has none.
std::string_view innermost_code(const std::vector<std::string_view>& path) {
  const auto code = std::find_if(path.rbegin(), path.rend(), [](std::string_view m) { return !m.starts_with(':'); });
  return code == path.rend() ? std::string_view{} : *code;
}

// Whether s is the trunk of the candidates below it: its own cost is negligible and lighter
// candidates that are more precise, or idle waits (idle_waits.h), hold the cutoff share of it
// together (as zooming passes through one callee holding it): a transformation's phase, a
// for-each over a whole document, a worker's loop that mostly waits for work. Those below are
// the candidates whose innermost code is none of s's methods (a candidate of the same innermost
// method extends it at the top, a caller's context; [m;:RUN] names nothing [m] does not), and
// that lie within it: the cutoff share of their cum overlaps it. `order` is by weight, heaviest
// first, and only the candidates after order[i] are below it, so of two that hold each other
// (a calls only b) the first is the trunk; `idle` are below every candidate.
bool holds_its_candidates(iface::Profile& profile, AutolabelOverlaps& overlaps,
                          const std::vector<iface::Summary>& order, std::size_t i,
                          const std::vector<iface::Summary>& idle, const iface::Rational& cutoff) {
  const iface::Summary s = order[i];
  if (!own_cost_negligible(profile, s, cutoff)) return false;
  const iface::Amount cum = profile.cum_of(s);
  const std::vector<std::string_view> path = profile.path_of(s);
  std::vector<iface::Summary> candidates(order.begin() + static_cast<std::ptrdiff_t>(i) + 1, order.end());
  candidates.insert(candidates.end(), idle.begin(), idle.end());
  std::vector<iface::Summary> below;
  for (const iface::Summary t : candidates) {
    const std::string_view code = innermost_code(profile.path_of(t));
    if (code.empty() || std::find(path.begin(), path.end(), code) != path.end()) continue;
    const iface::Amount t_cum = profile.cum_of(t);
    if (iface::to_rational(directed(overlaps.cum(t, s), t_cum)) >=
        cutoff * iface::to_rational(iface::abs_amount(t_cum)))
      below.push_back(t);
  }
  return !below.empty() && iface::to_rational(directed(profile.total_cum_of(below), cum)) >=
                               cutoff * iface::to_rational(iface::abs_amount(cum));
}

// The filter of `options`, or by default the noise of suggest.h.
std::function<bool(iface::Summary)> keep_of(iface::Profile& profile, const AutolabelOptions& options) {
  if (options.keep) return options.keep;
  return [&profile](iface::Summary s) { return beyond_noise(profile, s) && reliable(profile, profile.cum_of(s)); };
}

}  // namespace

AutolabelReached autolabel_reached(iface::Profile& profile, const AutolabelOptions& options) {
  const std::size_t per_suggester = std::max<std::size_t>(options.count * kSuggestionsPerProposal, 1);
  const std::function<bool(iface::Summary)> keep = keep_of(profile, options);
  auto trunk = std::make_shared<AutolabelTrunk>(profile, options.cutoff);
  std::set<iface::Summary> trunk_starts;
  // Thread roots rank high by cum but are never proposed: they take no suggestion's place. Each
  // start keeps its number in `suggest`.
  using Starts = std::vector<std::pair<iface::Summary, std::size_t>>;
  const auto starts = [&](Suggester suggester) {
    Starts out;
    const std::vector<iface::Summary> ranked = suggest(profile, suggester, 2 * per_suggester, keep).shown;
    for (std::size_t rank = 0; rank < ranked.size() && out.size() < per_suggester; ++rank) {
      const iface::Summary s = ranked[rank];
      // HighBase ranks by |base| first: from the first of base 0 on, its order is HighCum's
      // (every Java method of a typed-time view), and such a start is no bottom-up find.
      if (suggester == Suggester::kHighBase && profile.base_of(s) == 0) break;
      if (trunk->contains(profile.path_of(s).front()))
        trunk_starts.insert(s);
      else
        out.emplace_back(s, rank);
    }
    return out;
  };
  const Starts by_base = starts(Suggester::kHighBase);
  const Starts by_cum = starts(Suggester::kHighCum);

  // Every candidate once, with the first way it was reached: suggestions in rank order,
  // HighBase before HighCum at each rank.
  AutolabelReached out;
  out.trunk_starts = trunk_starts.size();
  out.trunk = trunk;
  std::set<iface::Summary> seen;
  const auto reach = [&](iface::Summary s, const AutolabelOrigin& origin) {
    s = without_trunk_cost(profile, *trunk, s);
    if (seen.insert(s).second) out.list.emplace_back(s, origin);
  };
  const std::size_t rounds = std::max(by_base.size(), by_cum.size());
  for (std::size_t i = 0; i < rounds; ++i)
    for (const Suggester suggester : {Suggester::kHighBase, Suggester::kHighCum}) {
      base::step("autolabel", i, rounds);
      const base::StepsCountAs round("autolabel", i, rounds);  // its zooms' steps are this one
      const Starts& list = suggester == Suggester::kHighBase ? by_base : by_cum;
      if (i >= list.size()) continue;
      const auto [s, rank] = list[i];
      AutolabelOrigin origin{suggester, rank, s, AutolabelMove::kSuggestion};
      reach(s, origin);
      origin.move = AutolabelMove::kCallers;
      reach(zoom_stop(profile, s, NearbyKind::kTopExtensions, options.cutoff), origin);
      origin.move = AutolabelMove::kCallees;
      reach(zoom_stop(profile, s, NearbyKind::kBottomExtensions, options.cutoff), origin);
    }
  return out;
}

AutolabelCandidates autolabel_candidates(iface::Profile& profile, const AutolabelOptions& options,
                                         const AutolabelReached& reached) {
  const std::function<bool(iface::Summary)> keep = keep_of(profile, options);
  AutolabelTrunk& trunk = *reached.trunk;
  AutolabelCandidates out;
  AutolabelSkipped& skipped = out.skipped;
  skipped.too_general = reached.trunk_starts;
  std::map<iface::Summary, std::pair<AutolabelOrigin, iface::Amount>> kept;
  std::vector<iface::Summary> idle;
  for (const auto& [s, origin] : reached.list) {
    const iface::Amount weight = autolabel_weight(profile, s, options.direction);
    if (weight <= 0) continue;
    if (!keep(s)) {
      ++skipped.within_noise;
      continue;
    }
    if (const std::vector<std::string_view> path = profile.path_of(s);
        trunk.contains(path.back()) || typed_time_only(path) || passes_through(profile, s, options.cutoff)) {
      ++skipped.too_general;
      continue;
    }
    if (ends_in_idle_wait(profile.path_of(s))) {
      idle.push_back(s);
      ++skipped.idle_waits;
      continue;
    }
    if (!options.labelled.empty() && iface::cum_overlap(profile, s, options.labelled) != 0) {
      ++skipped.overlapping_labels;
      continue;
    }
    kept.emplace(s, std::pair(origin, weight));
  }
  std::vector<iface::Summary> order;
  order.reserve(kept.size());
  for (const auto& entry : kept) order.push_back(entry.first);
  // Positive weights are |cum| (autolabel_weight), so the zooming order is the weight order.
  sort_by_cum(profile, order);
  out.overlaps = std::make_shared<AutolabelOverlaps>(profile);
  for (std::size_t i = 0; i < order.size(); ++i)
    if (holds_its_candidates(profile, *out.overlaps, order, i, idle, options.cutoff))
      ++skipped.too_general;
    else
      out.list.push_back({order[i], kept.at(order[i]).first, kept.at(order[i]).second});
  return out;
}

AutolabelCandidates autolabel_candidates(iface::Profile& profile, const AutolabelOptions& options) {
  return autolabel_candidates(profile, options, autolabel_reached(profile, options));
}

}  // namespace bn::search
