#include "bn/search/suggest.h"

#include <algorithm>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>

namespace bn::search {
namespace {

struct Keyed {
  iface::Summary s;
  iface::Amount key;
  iface::Amount tie;
};

// a comes before b: heavier key, then heavier tie. Exact integer Amounts, no rationals.
bool heavier(const Keyed& a, const Keyed& b) { return std::tie(b.key, b.tie) < std::tie(a.key, a.tie); }

// Sorts `keyed` by (key, tie) descending, then call path ascending. Paths are vectors of names,
// so they are built only for runs of equal keys, which are rare and short.
void sort_keyed(iface::Profile& profile, std::span<Keyed> keyed) {
  std::sort(keyed.begin(), keyed.end(), heavier);
  for (auto run = keyed.begin(); run != keyed.end();) {
    const auto end = std::find_if(run, keyed.end(), [&](const Keyed& k) { return heavier(*run, k); });
    if (end - run > 1) {
      std::vector<std::pair<std::vector<std::string_view>, Keyed>> named;
      for (auto it = run; it != end; ++it) named.emplace_back(profile.path_of(it->s), *it);
      std::sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& [path, k] : named) *run++ = k;
    }
    run = end;
  }
}

// The first `limit` summaries in rank order. Only those the partial selection cannot separate
// from the limit-th (ties included) get fully sorted, so ranking a neighbourhood of 10^5
// summaries for a screenful costs one linear pass (nth_element) plus a small sort.
Shortlist rank(iface::Profile& profile, const std::vector<iface::Summary>& summaries, bool by_cum, std::size_t limit) {
  std::vector<Keyed> keyed;
  keyed.reserve(summaries.size());
  for (iface::Summary s : summaries) {
    const iface::Amount cum = iface::abs_amount(profile.cum_of(s));
    const iface::Amount base = iface::abs_amount(profile.base_of(s));
    keyed.push_back({s, by_cum ? cum : base, by_cum ? base : cum});
  }
  auto candidates_end = keyed.end();
  if (limit == 0) {
    candidates_end = keyed.begin();
  } else if (limit < keyed.size()) {
    const auto nth = keyed.begin() + static_cast<std::ptrdiff_t>(limit - 1);
    std::nth_element(keyed.begin(), nth, keyed.end(), heavier);
    const Keyed boundary = *nth;
    candidates_end = std::partition(nth + 1, keyed.end(), [&](const Keyed& k) { return !heavier(boundary, k); });
  }
  sort_keyed(profile, std::span<Keyed>(keyed.begin(), candidates_end));
  Shortlist out;
  for (auto it = keyed.begin(); it != candidates_end && out.shown.size() < limit; ++it) out.shown.push_back(it->s);
  out.more = summaries.size() - out.shown.size();
  return out;
}

}  // namespace

Shortlist suggest(iface::Profile& profile, Suggester suggester, std::size_t limit,
                  const std::function<bool(iface::Summary)>& keep) {
  std::vector<iface::Summary> starts = profile.initial_summaries();
  if (keep) std::erase_if(starts, [&](iface::Summary s) { return !keep(s); });
  return rank(profile, starts, suggester == Suggester::kHighCum, limit);
}

bool beyond_noise(iface::Profile& profile, iface::Summary s) {
  const std::optional<iface::Noise> noise = profile.noise(s);
  return !noise || noise->significant();
}

// Seed 000 sec. 5.1: estimates from fewer than ten samples are within random noise.
constexpr int kReliableSamples = 10;

bool reliable(iface::Profile& profile, iface::Amount cost) {
  const iface::MetricInfo m = profile.metric();
  return !m.is_sample_count ||
         iface::abs_amount(cost) >= kReliableSamples * (m.sample != 0 ? m.sample : profile.denominator());
}

Shortlist rank_summaries(iface::Profile& profile, const std::vector<iface::Summary>& summaries, Suggester suggester,
                         std::size_t limit) {
  return rank(profile, summaries, suggester == Suggester::kHighCum, limit);
}

void sort_by_cum(iface::Profile& profile, std::vector<iface::Summary>& summaries) {
  summaries = rank(profile, summaries, true, summaries.size()).shown;
}

}  // namespace bn::search
