#include "bn/repl/suggest.h"

#include <algorithm>
#include <string_view>
#include <tuple>

namespace bn::repl {
namespace {

struct Ranked {
  iface::Summary s;
  iface::Amount key;
  iface::Amount tie;
  std::vector<std::string_view> path;
};

void rank(iface::Profile& profile, std::vector<iface::Summary>& summaries, bool by_cum) {
  std::vector<Ranked> ranked;
  ranked.reserve(summaries.size());
  for (iface::Summary s : summaries) {
    const iface::Amount cum = iface::abs_amount(profile.cum_of(s));
    const iface::Amount base = iface::abs_amount(profile.base_of(s));
    ranked.push_back({s, by_cum ? cum : base, by_cum ? base : cum, profile.path_of(s)});
  }
  std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    return std::tie(b.key, b.tie, a.path) < std::tie(a.key, a.tie, b.path);
  });
  for (std::size_t i = 0; i < ranked.size(); ++i) summaries[i] = ranked[i].s;
}

}  // namespace

std::vector<iface::Summary> suggest(iface::Profile& profile, Suggester suggester) {
  std::vector<iface::Summary> summaries = profile.initial_summaries();
  rank(profile, summaries, suggester == Suggester::kHighCum);
  return summaries;
}

void sort_by_cum(iface::Profile& profile, std::vector<iface::Summary>& summaries) {
  rank(profile, summaries, true);
}

}  // namespace bn::repl
