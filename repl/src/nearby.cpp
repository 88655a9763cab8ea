#include "bn/repl/nearby.h"

#include "bn/repl/suggest.h"

namespace bn::repl {
namespace {

bool reaches(iface::Profile& profile, const std::vector<iface::Summary>& sorted, std::size_t n, const iface::Rational& C) {
  const std::span<const iface::Summary> prefix(sorted.data(), n);
  return iface::to_rational(iface::abs_amount(profile.total_cum_of(prefix))) >= C;
}

// The fewest leading candidates whose |total_cum_of| reaches C (empty when none does).
std::vector<iface::Summary> concentrate(iface::Profile& profile, const std::vector<iface::Summary>& sorted,
                                        const iface::Rational& C) {
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

std::vector<iface::Summary> one_step(iface::Profile& profile, iface::Summary s, NearbyKind kind) {
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
  sort_by_cum(profile, out);
  return out;
}

std::vector<iface::Summary> zoom(iface::Profile& profile, iface::Summary s, NearbyKind kind,
                                 const iface::Rational& cutoff) {
  const iface::Rational C = cutoff * iface::to_rational(iface::abs_amount(profile.cum_of(s)));
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
                                const iface::Rational& cutoff) {
  std::vector<NearbyGroup> groups;
  for (NearbyKind kind : kNearbyKinds)
    groups.push_back({kind, zoomed ? zoom(profile, s, kind, cutoff) : one_step(profile, s, kind)});
  return groups;
}

}  // namespace bn::repl
