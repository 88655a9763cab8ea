#pragma once
// The profile interface of seed 004 sec. 2.1 (Fig. 3). The REPL, suggesters and zooming know
// only this class; every backend (one call tree, A minus B, typed-time views) implements it.
//
// A Summary is a cheap handle to a summary the backend holds: a call sequence plus whatever
// the backend needs to evaluate it (for call trees: the nodes that root the sequence). Equal
// call sequences give equal handles. Handles stay valid for the life of the profile.
//
// Costs are exact: Amount numerators over denominator() (see amount.h).

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/iface/amount.h"

namespace bn::iface {

struct Summary {
  std::uint32_t id = 0;
  auto operator<=>(const Summary&) const = default;
};

// What the costs measure, for headers and the ten-samples rule (seed 000 sec. 5.1).
struct MetricInfo {
  std::string metric;            // "samples", "cpu-time", "instructions", "calls", ...
  std::string unit;              // "samples", "ns", "count", ...
  bool is_sample_count = false;  // costs count samples: estimates below 10 are unreliable
};

// The two sides behind a summary of a comparative profile (A minus B, seed 004 sec. 2.2), so
// a display can show A, B and A−B and spot a sequence that occurs in one run only. Numerators
// over the profile's denominator(); B's values are already normalised, so
// cum_of(s) == a_cum - b_cum, base_of(s) == a_base - b_base and total() == a_total - b_total.
struct SideBySide {
  bool in_a = false, in_b = false;  // the sequence has a root in A / in B (an absent side is 0)
  Amount a_cum = 0, a_base = 0;
  Amount b_cum = 0, b_base = 0;
  Amount a_total = 0, b_total = 0;  // whole-profile totals of each side
};

// One 1-method extension of a summary with the metrics of the extended summary.
struct ExtensionAmounts {
  std::string_view method;
  Amount cum = 0;
  Amount base = 0;
  // The backend's own reference to the extension, handed back by ExtensionUnion::add so that
  // adding 10^4 extensions needs no lookup by name.
  std::uint32_t tag = 0;
};

class Profile;

// total_cum_of of a growing set of 1-method extensions of one summary s, all top or all bottom
// extensions, each named as extension_amounts(s, top) lists it. Zooming (sec. 2.3) asks it for
// every prefix of a neighbourhood of up to 10^5 extensions sorted by |cum|, so a backend may keep
// the union over its own measurements, without building the extensions as summaries. This
// default builds each added extension and asks total_cum_of of all of them.
class ExtensionUnion {
 public:
  ExtensionUnion(Profile& profile, Summary s, bool top) : profile_(profile), s_(s), top_(top) {}
  virtual ~ExtensionUnion() = default;
  // Adds an extension of s as extension_amounts(s, top) listed it. Adding one twice changes
  // nothing. Throws bn::Error when e is not an extension of s in this direction.
  virtual void add(const ExtensionAmounts& e);
  // total_cum_of of every extension added so far (0 for none).
  virtual Amount total();
  // For a profile whose costs are never negative: an upper bound on total() once every
  // extension of s in this direction is added, if the backend knows one cheaply (nullopt by
  // default). Zooming then gives up at once on a neighbourhood that cannot reach its cutoff,
  // instead of adding all of it to find out.
  virtual std::optional<Amount> bound_of_all() { return std::nullopt; }

 protected:
  // Throws the bn::Error add() promises for a name that is no extension.
  [[noreturn]] void reject(std::string_view m) const;

 private:
  Profile& profile_;
  Summary s_;
  bool top_;
  std::vector<Summary> added_;
};

class Profile {
 public:
  virtual ~Profile() = default;

  // --- Queries -------------------------------------------------------------------------
  // The call sequence of s, outermost first. Views live as long as the profile.
  virtual std::vector<std::string_view> path_of(Summary s) = 0;

  // --- Construction --------------------------------------------------------------------
  // One summary per method that occurs in the profile (length-1 call sequences).
  virtual std::vector<Summary> initial_summaries() = 0;
  // The length-1 summary of a method, if the method occurs.
  virtual std::optional<Summary> method_summary(std::string_view method) = 0;
  // Methods m such that m :: path_of(s) labels at least one path. Sorted by name.
  virtual std::vector<std::string_view> top_extensions(Summary s) = 0;
  // Methods m such that path_of(s) @ [m] has at least one root. Sorted by name.
  virtual std::vector<std::string_view> bottom_extensions(Summary s) = 0;
  // The summary of m :: path_of(s); nullopt when that sequence has no root.
  virtual std::optional<Summary> extend_top(Summary s, std::string_view m) = 0;
  // The summary of path_of(s) @ [m]; nullopt when that sequence has no root.
  virtual std::optional<Summary> extend_bottom(Summary s, std::string_view m) = 0;
  // Every m of top_extensions(s) (top) or bottom_extensions(s) with the cum and base of the
  // extended summary, in any order: what extend_top/extend_bottom then cum_of/base_of give,
  // without a handle per extension. `select` ranks a neighbourhood of up to 10^5 extensions to
  // list a few (sec. 2.3), so a backend may compute them all in one pass instead of building
  // every summary; the default builds them.
  virtual std::vector<ExtensionAmounts> extension_amounts(Summary s, bool top) {
    std::vector<ExtensionAmounts> out;
    for (std::string_view m : top ? top_extensions(s) : bottom_extensions(s))
      if (const auto t = top ? extend_top(s, m) : extend_bottom(s, m)) out.push_back({m, cum_of(*t), base_of(*t)});
    return out;
  }
  // The summary without its first (trim_top) or last (trim_bottom) call; nullopt at length 1.
  virtual std::optional<Summary> trim_top(Summary s) = 0;
  virtual std::optional<Summary> trim_bottom(Summary s) = 0;

  // --- Metrics (numerators over denominator()) ------------------------------------------
  virtual Amount base_of(Summary s) = 0;
  virtual Amount cum_of(Summary s) = 0;
  // Over the union of the paths of all summaries in S: a measurement is counted once however
  // many summaries reach it. The empty set gives 0.
  virtual Amount total_base_of(std::span<const Summary> S) = 0;
  virtual Amount total_cum_of(std::span<const Summary> S) = 0;
  // An empty running union over the top (top) or bottom extensions of s; see ExtensionUnion.
  virtual std::unique_ptr<ExtensionUnion> extension_union(Summary s, bool top) {
    return std::make_unique<ExtensionUnion>(*this, s, top);
  }

  // --- Profile-wide facts ----------------------------------------------------------------
  // The cost of the whole profile.
  virtual Amount total() = 0;
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
  // summaries are added to a set (zooming then bisects instead of scanning). Comparative
  // profiles (A minus B) are not.
  virtual bool costs_never_negative() { return false; }
  virtual MetricInfo metric() = 0;
  // Per-side values of s for a profile that compares two runs; nullopt (the default) for a
  // profile of one run.
  virtual std::optional<SideBySide> sides(Summary /*s*/) { return std::nullopt; }
};

}  // namespace bn::iface
