#include "bn/repl/nearby.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <optional>
#include <span>
#include <utility>

#include "bn/repl/suggest.h"

namespace bn::repl {
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

bool reaches(iface::Profile& profile, const std::vector<iface::Summary>& sorted, std::size_t n, const Threshold& C) {
  const std::span<const iface::Summary> prefix(sorted.data(), n);
  return C.reached_by(profile.total_cum_of(prefix));
}

// The fewest leading candidates whose |total_cum_of| reaches C (empty when none does).
std::vector<iface::Summary> concentrate(iface::Profile& profile, const std::vector<iface::Summary>& sorted,
                                        const Threshold& C) {
  std::size_t n = 0;  // the answer, 0 for none
  // Without negative measurements the union of a growing prefix can only grow, so the first N
  // that reaches C is found by galloping and bisection; otherwise (A minus B) scan linearly.
  if (profile.costs_never_negative()) {
    std::size_t low = 0, high = 1;  // reaches(low) is false (or low = 0), high is the next probe
    while (high < sorted.size() && !reaches(profile, sorted, high, C)) {
      low = high;
      high *= 2;
    }
    high = std::min(high, sorted.size());
    if (high > 0 && reaches(profile, sorted, high, C)) {
      while (high - low > 1) {
        const std::size_t mid = low + (high - low) / 2;
        (reaches(profile, sorted, mid, C) ? high : low) = mid;
      }
      n = high;
    }
  } else {
    for (std::size_t k = 1; k <= sorted.size() && n == 0; ++k)
      if (reaches(profile, sorted, k, C)) n = k;
  }
  return {sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n)};
}

}  // namespace

std::string_view nearby_kind_name(NearbyKind kind) {
  switch (kind) {
    case NearbyKind::kTopExtensions: return "top extensions";
    case NearbyKind::kBottomExtensions: return "bottom extensions";
    case NearbyKind::kTrimTop: return "trim top";
    case NearbyKind::kTrimBottom: return "trim bottom";
  }
  return "";
}

std::string_view nearby_kind_key(NearbyKind kind) {
  switch (kind) {
    case NearbyKind::kTopExtensions: return "top_extensions";
    case NearbyKind::kBottomExtensions: return "bottom_extensions";
    case NearbyKind::kTrimTop: return "trim_top";
    case NearbyKind::kTrimBottom: return "trim_bottom";
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
    case NearbyKind::kTrimTop: keep(profile.trim_top(s)); break;
    case NearbyKind::kTrimBottom: keep(profile.trim_bottom(s)); break;
  }
  return out;
}

// The `limit` heaviest extensions of s, as sort_by_cum would order their summaries: by |cum|,
// |base|, then call path, which for extensions of one summary differs only in the added method.
// Ranked on the backend's amounts, so only the listed ones are built as summaries.
Shortlist heaviest_extensions(iface::Profile& profile, iface::Summary s, bool top, std::size_t limit) {
  std::vector<iface::ExtensionAmounts> all = profile.extension_amounts(s, top);
  const auto key = [](const iface::ExtensionAmounts& e) {
    return std::tuple(iface::abs_amount(e.cum), iface::abs_amount(e.base));
  };
  const auto before = [&](const iface::ExtensionAmounts& a, const iface::ExtensionAmounts& b) {
    return key(b) < key(a) || (key(a) == key(b) && a.method < b.method);
  };
  const auto end = all.begin() + static_cast<std::ptrdiff_t>(std::min(limit, all.size()));
  std::partial_sort(all.begin(), end, all.end(), before);
  Shortlist out;
  for (auto it = all.begin(); it != end; ++it)
    if (const auto t = top ? profile.extend_top(s, it->method) : profile.extend_bottom(s, it->method))
      out.shown.push_back(*t);
  out.more = all.size() - out.shown.size();
  return out;
}

// The unzoomed listing of one group.
Shortlist listed(iface::Profile& profile, iface::Summary s, NearbyKind kind, std::size_t limit) {
  switch (kind) {
    case NearbyKind::kTopExtensions: return heaviest_extensions(profile, s, true, limit);
    case NearbyKind::kBottomExtensions: return heaviest_extensions(profile, s, false, limit);
    default: return top_by_cum(profile, candidates(profile, s, kind), limit);
  }
}

}  // namespace

std::vector<iface::Summary> one_step(iface::Profile& profile, iface::Summary s, NearbyKind kind) {
  std::vector<iface::Summary> out = candidates(profile, s, kind);
  sort_by_cum(profile, out);
  return out;
}

std::vector<iface::Summary> zoom(iface::Profile& profile, iface::Summary s, NearbyKind kind,
                                 const iface::Rational& cutoff) {
  const Threshold C(cutoff, profile.cum_of(s));
  bool zoomed_through = false;
  // Each step moves strictly towards longer (extensions) or shorter (trimmings) call sequences
  // that exist in the profile, so the chain is finite.
  for (;;) {
    std::vector<iface::Summary> chosen = concentrate(profile, one_step(profile, s, kind), C);
    if (chosen.size() == 1) {
      s = chosen.front();
      zoomed_through = true;
      continue;
    }
    if (chosen.empty() && zoomed_through) return {s};
    return chosen;
  }
}

std::vector<NearbyGroup> nearby(iface::Profile& profile, iface::Summary s, bool zoomed,
                                const iface::Rational& cutoff, std::size_t limit) {
  std::vector<NearbyGroup> groups;
  for (NearbyKind kind : kNearbyKinds) {
    // A zoomed group is already sorted and short unless the cutoff asks for many summaries.
    Shortlist list = zoomed ? top_by_cum(profile, zoom(profile, s, kind, cutoff), limit) : listed(profile, s, kind, limit);
    groups.push_back({kind, std::move(list.shown), list.more});
  }
  return groups;
}

}  // namespace bn::repl
