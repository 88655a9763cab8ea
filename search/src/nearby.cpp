#include "bn/search/nearby.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "bn/base/error.h"
#include "bn/base/interruption.h"
#include "bn/iface/refinements.h"
#include "bn/search/suggest.h"

namespace bn::search {
namespace {

// The zoom test |total| >= c·|cum_of(s)| for the cutoff c = p/q, asked once per probe. Decided
// as |total|·q >= p·|cum_of(s)| in 128-bit integers when all four factors are below 2^63 (the
// products then stay below 2^126), so no rational is built per probe; in exact rationals
// otherwise (a cutoff typed with more than 18 digits, or amounts beyond 2^63).
class Threshold {
 public:
  Threshold(const iface::Rational& cutoff, iface::Amount cum) : cutoff_(cutoff), cum_(iface::abs_amount(cum)) {
    const auto& p = boost::multiprecision::numerator(cutoff);
    const auto& q = boost::multiprecision::denominator(cutoff);
    if (p <= INT64_MAX && q <= INT64_MAX)
      p_q_ = {static_cast<iface::Amount>(p.convert_to<std::int64_t>()),
              static_cast<iface::Amount>(q.convert_to<std::int64_t>())};
  }

  bool reached_by(iface::Amount total) const {
    total = iface::abs_amount(total);
    if (p_q_ && total <= INT64_MAX && cum_ <= INT64_MAX) return total * p_q_->second >= p_q_->first * cum_;
    return iface::to_rational(total) >= cutoff_ * iface::to_rational(cum_);
  }

 private:
  iface::Rational cutoff_;
  iface::Amount cum_;
  std::optional<std::pair<iface::Amount, iface::Amount>> p_q_;  // the cutoff's p and q when both fit
};

// Extensions before b in sort_by_cum's order: |cum|, |base|, then call path, which for
// extensions of one summary differs only in the added method.
bool extension_before(const iface::ExtensionAmounts& a, const iface::ExtensionAmounts& b) {
  const auto key = [](const iface::ExtensionAmounts& e) {
    return std::tuple(iface::abs_amount(e.cum), iface::abs_amount(e.base));
  };
  return key(b) < key(a) || (key(a) == key(b) && a.method < b.method);
}

// The candidates of one step in sort_by_cum order with their cums, for listing and zooming,
// and a running union over the leading ones. Extensions are ranked on extension_amounts and
// united by the backend's extension_union, so a huge neighbourhood (10^5 extensions) is never
// built as summaries beyond the ones listed. Trimmings (at most one candidate) are built and
// united by total_cum_of. Refinements through a gap (seed 000 sec. 2) are ranked on their
// amounts too, built as they are listed and united by gap_extension_union or split_union.
class Ranked {
 public:
  using Build = std::function<std::optional<iface::Summary>(std::string_view)>;
  using MakeUnion = std::function<std::unique_ptr<iface::ExtensionUnion>()>;
  Ranked(iface::Profile& profile, iface::Summary s, iface::End end)
      : profile_(profile),
        s_(s),
        end_(end),
        of_extensions_(true),
        make_union_([&profile, s, end] { return profile.extension_union(s, end); }),
        extensions_(profile.extension_amounts(s, end)) {}
  Ranked(iface::Profile& profile, std::vector<iface::Summary> sorted) : profile_(profile), built_(std::move(sorted)) {}
  Ranked(iface::Profile& profile, std::vector<iface::ExtensionAmounts> amounts, Build build, MakeUnion make_union)
      : profile_(profile),
        of_extensions_(true),
        build_(std::move(build)),
        make_union_(std::move(make_union)),
        extensions_(std::move(amounts)) {}

  std::size_t size() const { return of_extensions_ ? extensions_.size() : built_.size(); }
  iface::Amount cum(std::size_t i) { return of_extensions_ ? extension(i).cum : profile_.cum_of(built_[i]); }
  // Whether every candidate's cum and base are known before it is built.
  bool amounts_known() const { return of_extensions_; }
  iface::Amount base(std::size_t i) { return of_extensions_ ? extension(i).base : profile_.base_of(built_[i]); }
  // Adds the next candidate to the running union.
  void include_next() {
    if (make_union_) running().add(extension(included_));
    ++included_;
  }
  std::optional<iface::Amount> bound_of_all() { return make_union_ ? running().bound_of_all() : std::nullopt; }
  iface::Amount included_total() { return make_union_ ? running().total() : profile_.total_cum_of(prefix(included_)); }
  // The first `limit` of the first n candidates, built, and how many of the n are left out.
  Shortlist first(std::size_t n, std::size_t limit) {
    const auto shown = prefix(std::min(n, limit));
    return {{shown.begin(), shown.end()}, n - shown.size()};
  }
  // The method the i-th candidate adds to the sequence; empty for a trimming, which adds none.
  std::string_view added_method(std::size_t i) { return of_extensions_ ? extension(i).method : std::string_view(); }
  // The first n candidates as summaries.
  std::span<const iface::Summary> prefix(std::size_t n) {
    while (built_.size() < n) {
      const std::string_view m = extension(built_.size()).method;
      const auto t = build_ ? build_(m) : profile_.extend(s_, end_, m);
      if (!t) throw Error("profile backend: extension_amounts lists '" + std::string(m) + "' but it cannot be built");
      built_.push_back(*t);
    }
    return {built_.data(), n};
  }

 private:
  iface::Profile& profile_;
  iface::Summary s_{};
  iface::End end_ = iface::End::top;
  bool of_extensions_ = false;
  Build build_;           // builds a candidate by name, when not an extension at end_
  MakeUnion make_union_;  // an empty running union over the candidates, but for trimmings
  // Made on first use: listing never asks for it.
  iface::ExtensionUnion& running() {
    if (!union_) union_ = make_union_();
    return *union_;
  }
  std::unique_ptr<iface::ExtensionUnion> union_;
  // The i-th extension in sort_by_cum order. Sorted lazily: a scan usually reads a few
  // thousand of 10^5 extensions, so only a prefix is put in order, doubling as it is read.
  const iface::ExtensionAmounts& extension(std::size_t i) {
    if (i >= sorted_) {
      const std::size_t end = std::min(extensions_.size(), std::max({i + 1, 2 * sorted_, std::size_t{256}}));
      const auto first = extensions_.begin() + static_cast<std::ptrdiff_t>(sorted_);
      const auto stop = extensions_.begin() + static_cast<std::ptrdiff_t>(end);
      std::nth_element(first, stop, extensions_.end(), extension_before);
      std::sort(first, stop, extension_before);
      sorted_ = end;
    }
    return extensions_[i];
  }

  std::vector<iface::ExtensionAmounts> extensions_;  // extensions only; the first sorted_ in order
  std::size_t sorted_ = 0;
  std::vector<iface::Summary> built_;  // all trimmings; the extensions asked for
  std::size_t included_ = 0;
};

// The upward split of s at `gap` with every candidate's amounts (each one built: see
// iface::upward_split).
std::vector<iface::ExtensionAmounts> split_amounts(iface::Profile& profile, iface::Summary s, std::size_t gap) {
  std::vector<iface::ExtensionAmounts> out;
  const std::size_t x = gap + 1;  // where P1;..;x;P2 holds the new method
  for (const iface::Summary t : iface::upward_split(profile, s, gap))
    out.push_back({profile.path_of(t)[x], profile.cum_of(t), profile.base_of(t)});
  return out;
}

Ranked ranked(iface::Profile& profile, iface::Summary s, NearbyKind kind, std::size_t gap) {
  switch (kind) {
    case NearbyKind::kTopExtensions:
      return Ranked(profile, s, iface::End::top);
    case NearbyKind::kBottomExtensions:
      return Ranked(profile, s, iface::End::bottom);
    case NearbyKind::kExtendedDownward: {
      const iface::CallPattern p = profile.pattern_of(s);
      return Ranked(
          profile, profile.gap_extensions(s),
          [&profile, p](std::string_view m) { return profile.pattern_summary(iface::extended_through_gap(p, m)); },
          [&profile, s] { return profile.gap_extension_union(s); });
    }
    case NearbyKind::kUpwardSplit: {
      const iface::CallPattern p = profile.pattern_of(s);
      return Ranked(
          profile, split_amounts(profile, s, gap),
          [&profile, p, gap](std::string_view m) { return profile.pattern_summary(iface::split_at(p, gap, m)); },
          [&profile, s, gap] { return profile.split_union(s, gap); });
    }
    default:
      return Ranked(profile, one_step(profile, s, kind));
  }
}

// Whether s's call sequence holds the method m.
bool calls(iface::Profile& profile, iface::Summary s, std::string_view m) {
  const auto path = profile.path_of(s);
  return std::find(path.begin(), path.end(), m) != path.end();
}

// The fewest leading candidates whose |total_cum_of| reaches C (0 when none does), by a scan
// over the prefixes with a running union, so each candidate is added once. Without negative
// measurements the union of a prefix is at most the sum of its cums: the prefixes whose cums sum
// below C cannot reach C and are added without asking, and a backend's bound on the union of
// all candidates can rule out every prefix at once. With negative measurements (A minus B)
// neither bound holds, so every prefix is asked. A step of 10^6 candidates takes seconds, so it
// stops on an interruption too (`steps`: the zoom's steps so far, for the progress line).
std::size_t concentrate(iface::Profile& profile, Ranked& sorted, const Threshold& C, std::size_t steps) {
  constexpr std::size_t kCandidatesBetweenSteps = 4096;
  const auto include_next = [&](std::size_t done) {
    if (done % kCandidatesBetweenSteps == kCandidatesBetweenSteps - 1) base::step("zooming", steps);
    sorted.include_next();
  };
  std::size_t k = 0;  // candidates added
  if (profile.costs_never_negative()) {
    if (const auto all = sorted.bound_of_all(); all && !C.reached_by(*all)) return 0;
    iface::Amount sum = 0;
    while (k < sorted.size() && !C.reached_by(sum + sorted.cum(k))) sum += sorted.cum(k++);
    if (k == sorted.size()) return 0;
    for (std::size_t i = 0; i < k; ++i) include_next(i);
  }
  while (k < sorted.size()) {
    include_next(k);
    ++k;
    if (C.reached_by(sorted.included_total())) return k;
  }
  return 0;
}

// From s, the steps at `end` where one extension alone reaches C and adds a method s does not
// hold yet: those zoom() passes through without a choice (concentrate gives 1 exactly when the
// heaviest extension's cum reaches C, the union of one summary being its cum). They go through
// Profile::extension_walk, so the summaries passed are not built: down a chain of D distinct
// methods, building each cost O(D²). Returns the summary reached, and whether it moved.
std::pair<iface::Summary, bool> through_single_steps(iface::Profile& profile, iface::Summary s, iface::End end,
                                                     const Threshold& C) {
  const std::unique_ptr<iface::ExtensionWalk> walk = profile.extension_walk(s, end);
  const std::vector<std::string_view> path = profile.path_of(s);
  std::unordered_set<std::string_view> held(path.begin(), path.end());
  bool moved = false;
  for (std::size_t steps = 0;; ++steps) {
    base::step("zooming", steps);
    const std::vector<iface::ExtensionAmounts> amounts = walk->amounts();
    const auto heaviest = std::min_element(amounts.begin(), amounts.end(), extension_before);
    if (heaviest == amounts.end() || !C.reached_by(heaviest->cum) || !held.insert(heaviest->method).second) break;
    walk->extend(heaviest->method);
    moved = true;
  }
  return {moved ? walk->summary() : s, moved};
}

}  // namespace

std::string_view nearby_kind_name(NearbyKind kind) {
  switch (kind) {
    case NearbyKind::kTopExtensions:
      return "top extensions";
    case NearbyKind::kBottomExtensions:
      return "bottom extensions";
    case NearbyKind::kTrimTop:
      return "trim top";
    case NearbyKind::kTrimBottom:
      return "trim bottom";
    case NearbyKind::kExtendedDownward:
      return "extended downward refinement";
    case NearbyKind::kUpwardSplit:
      return "upward split";
  }
  return "";
}

std::string_view nearby_kind_key(NearbyKind kind) {
  switch (kind) {
    case NearbyKind::kTopExtensions:
      return "top_extensions";
    case NearbyKind::kBottomExtensions:
      return "bottom_extensions";
    case NearbyKind::kTrimTop:
      return "trim_top";
    case NearbyKind::kTrimBottom:
      return "trim_bottom";
    case NearbyKind::kExtendedDownward:
      return "extended_downward";
    case NearbyKind::kUpwardSplit:
      return "upward_split";
  }
  return "";
}

namespace {

// The summaries one step away from s, unordered.
std::vector<iface::Summary> candidates(iface::Profile& profile, iface::Summary s, NearbyKind kind) {
  std::vector<iface::Summary> out;
  auto keep = [&out](std::optional<iface::Summary> t) {
    if (t) out.push_back(*t);
  };
  switch (kind) {
    case NearbyKind::kTopExtensions:
      for (std::string_view m : profile.top_extensions(s)) keep(profile.extend_top(s, m));
      break;
    case NearbyKind::kBottomExtensions:
      for (std::string_view m : profile.bottom_extensions(s)) keep(profile.extend_bottom(s, m));
      break;
    case NearbyKind::kTrimTop:
      keep(profile.trim_top(s));
      break;
    case NearbyKind::kTrimBottom:
      keep(profile.trim_bottom(s));
      break;
    case NearbyKind::kExtendedDownward:
    case NearbyKind::kUpwardSplit:
      throw Error("profile backend: refinements through a gap are ranked by `refine`");
  }
  return out;
}

}  // namespace

std::vector<iface::Summary> one_step(iface::Profile& profile, iface::Summary s, NearbyKind kind) {
  std::vector<iface::Summary> out = candidates(profile, s, kind);
  sort_by_cum(profile, out);
  return out;
}

Zoomed zoom(iface::Profile& profile, iface::Summary s, NearbyKind kind, const iface::Rational& cutoff,
            std::size_t limit, std::size_t gap) {
  const Threshold C(cutoff, profile.cum_of(s));
  bool zoomed_through = false;
  if (kind == NearbyKind::kTopExtensions || kind == NearbyKind::kBottomExtensions)
    std::tie(s, zoomed_through) =
        through_single_steps(profile, s, kind == NearbyKind::kTopExtensions ? iface::End::top : iface::End::bottom, C);
  // Each step moves strictly towards longer (extensions) or shorter (trimmings) call sequences
  // that exist in the profile, and an extension never repeats a method, so the chain is at most
  // as long as the profile has distinct methods. After the walk above an extension's step ends
  // here at once: the recursion stop, or a choice among several or none.
  for (std::size_t steps = 0;; ++steps) {
    base::step("zooming", steps);
    // An upward split inserts its method after the gap, so the next split is at the same gap.
    Ranked sorted = ranked(profile, s, kind, gap);
    const std::size_t n = concentrate(profile, sorted, C, steps);
    if (n == 1) {
      if (const std::string_view m = sorted.added_method(0); !m.empty() && calls(profile, s, m)) {
        Zoomed out{sorted.first(1, limit), std::string(m)};
        return out;
      }
      s = sorted.prefix(1).front();
      zoomed_through = true;
      continue;
    }
    if (n == 0 && zoomed_through) return {{{s}, 0}, {}};
    return {sorted.first(n, limit), {}};
  }
}

namespace {

// The first `shown` candidates of a ranking, built as they are asked for.
class RankedListing final : public Listing {
 public:
  RankedListing(std::unique_ptr<Ranked> sorted, std::size_t shown) : sorted_(std::move(sorted)), shown_(shown) {}
  std::size_t size() const override { return shown_; }
  iface::Amount cum(std::size_t i) override { return sorted_->cum(i); }
  iface::Amount base(std::size_t i) override { return sorted_->base(i); }
  iface::Summary summary(std::size_t i) override { return sorted_->prefix(i + 1)[i]; }

 private:
  std::unique_ptr<Ranked> sorted_;
  std::size_t shown_;
};

}  // namespace

NearbyGroup refinement(iface::Profile& profile, iface::Summary s, NearbyKind kind, bool zoomed,
                       const iface::Rational& cutoff, std::size_t limit, std::size_t gap, std::size_t built_up_front) {
  if (zoomed) {
    Zoomed list = zoom(profile, s, kind, cutoff, limit, gap);
    return {kind, std::move(list.shown), list.more, nullptr, std::move(list.recursive_method)};
  }
  // The heaviest `limit` of all candidates, only those built; a long list as it is printed.
  auto sorted = std::make_unique<Ranked>(ranked(profile, s, kind, gap));
  const std::size_t shown = std::min(sorted->size(), limit), more = sorted->size() - shown;
  if (shown > built_up_front && sorted->amounts_known())
    return {kind, {}, more, std::make_shared<RankedListing>(std::move(sorted), shown), {}};
  Shortlist list = sorted->first(sorted->size(), limit);
  return {kind, std::move(list.shown), list.more, nullptr, {}};
}

std::vector<NearbyGroup> nearby(iface::Profile& profile, iface::Summary s, bool zoomed, const iface::Rational& cutoff,
                                std::size_t limit, std::size_t built_up_front) {
  std::vector<NearbyGroup> groups;
  for (NearbyKind kind : kNearbyKinds)
    groups.push_back(refinement(profile, s, kind, zoomed, cutoff, limit, 0, built_up_front));
  return groups;
}

}  // namespace bn::search
