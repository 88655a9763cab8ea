#include "bn/repl/nearby.h"

#include "bn/repl/suggest.h"

namespace bn::repl {
namespace {

// The fewest leading candidates whose |total_cum_of| reaches C (empty when none does). The
// union is recomputed per prefix: with comparative costs it is not monotone in the prefix, so
// the first N that reaches C can only be found by trying each N in turn.
std::vector<iface::Summary> concentrate(iface::Profile& profile, const std::vector<iface::Summary>& sorted,
                                        const iface::Rational& C) {
  for (std::size_t n = 1; n <= sorted.size(); ++n) {
    const std::span<const iface::Summary> prefix(sorted.data(), n);
    if (iface::to_rational(iface::abs_amount(profile.total_cum_of(prefix))) >= C)
      return {sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n)};
  }
  return {};
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
