#include "bn/causal/analysis.h"

#include <algorithm>
#include <map>
#include <string>

#include "bn/base/error.h"

namespace bn::causal {
namespace {

// Throughput: the effective duration per unit. Latency: the time in flight per arrival, which is
// Little's law's W = L / λ over the experiment (L = area / duration, λ = arrivals / duration);
// the area is in virtual time already, as the effective duration is.
Observation observe(const calltree::CausalExperiment& e, std::size_t point, calltree::ProgressPoint::Kind kind) {
  const auto units = static_cast<double>(e.progress[point]);
  if (kind == calltree::ProgressPoint::Kind::latency)
    return {point < e.in_flight.size() ? static_cast<double>(e.in_flight[point].area_ns) : 0, units};
  return {static_cast<double>(e.duration_ns - e.delay_ns), units};
}

// An interval entirely below zero: the program was measurably slower.
// Slower for sure, and by more than the method's own bias: a target off the critical path reads
// a few percent below 0 at high speedups (each pause costs a wake-up besides its length), which
// is no contention.
constexpr double kSlowerMargin = 0.05;
bool slower(const Estimate& e) {
  return e.interval && e.interval->high < 0 && e.speedup && *e.speedup <= -kSlowerMargin;
}

// Ranked first: a summary estimate, the larger first; then the larger cost share; then the index.
bool ranks_before(const TargetResult& a, const TargetResult& b) {
  if (a.summary.speedup.has_value() != b.summary.speedup.has_value()) return a.summary.speedup.has_value();
  if (a.summary.speedup && *a.summary.speedup != *b.summary.speedup) return *a.summary.speedup > *b.summary.speedup;
  if (a.cost_share != b.cost_share) return a.cost_share > b.cost_share;
  return a.target < b.target;
}

}  // namespace

std::string_view flag_name(Flag flag) {
  switch (flag) {
    case Flag::off_critical_path:
      return "off the critical path";
    case Flag::plateau:
      return "plateau";
    case Flag::contention:
      return "contention";
    case Flag::too_few:
      return "too few experiments";
  }
  return "";
}

std::string_view flag_explanation(Flag flag) {
  switch (flag) {
    case Flag::off_critical_path:
      return "costs much, pays little: its time overlaps time the program waits for anyway";
    case Flag::plateau:
      return "past about half, another path limits: speeding it further gains little";
    case Flag::contention:
      return "speeding it slows the program: it likely contends for a lock or resource";
    case Flag::too_few:
      return "fewer than 3 experiments between 40% and 60%: record longer for a reliable estimate";
  }
  return "";
}

std::vector<Flag> flags_of(const TargetResult& r) {
  std::vector<Flag> flags;
  const Estimate& mid = r.summary;
  // It would pay a quarter of what removing half its cost share would if it were all on the
  // critical path; below that with 95% confidence, it is mostly off it.
  if (r.cost_share >= 0.05 && mid.interval && mid.interval->high < 0.25 * (0.5 * r.cost_share))
    flags.push_back(Flag::off_critical_path);
  if (mid.speedup && r.top.speedup && mid.interval && mid.interval->low > 0 &&
      *r.top.speedup - *mid.speedup < 0.25 * *mid.speedup)
    flags.push_back(Flag::plateau);
  // At 0% nothing is delayed, so its point cannot show a slowdown: it is left out.
  const bool point_slower = std::any_of(r.curve.begin(), r.curve.end(), [](const CurvePoint& p) {
    return p.speedup > 0 && p.estimate.experiments >= 2 && slower(p.estimate);
  });
  if (slower(mid) || slower(r.top) || point_slower) flags.push_back(Flag::contention);
  if (mid.experiments < 3) flags.push_back(Flag::too_few);
  return flags;
}

CausalAnalysis analyze(const calltree::CausalData& data, std::size_t point, std::span<const double> cost_shares) {
  if (point >= data.points.size())
    throw Error("progress point " + std::to_string(point) + " of " + std::to_string(data.points.size()));
  if (cost_shares.size() != data.targets.size())
    throw Error(std::to_string(cost_shares.size()) + " cost shares for " + std::to_string(data.targets.size()) +
                " targets");
  std::vector<Observation> baseline;
  // Per target, its experiments by virtual speedup and in each band, in recording order.
  std::vector<std::map<std::uint32_t, std::vector<Observation>>> by_speedup(data.targets.size());
  std::vector<std::vector<Observation>> mid(data.targets.size()), top(data.targets.size());
  for (const calltree::CausalExperiment& e : data.experiments) {
    if (e.target >= data.targets.size() || point >= e.progress.size())
      throw Error("an experiment names target " + std::to_string(e.target) + " of " +
                  std::to_string(data.targets.size()) + " or counts " + std::to_string(e.progress.size()) +
                  " progress points");
    const Observation o = observe(e, point, data.points[point].kind);
    // No delay is inserted at 0%, whatever the target: every such experiment measures the
    // program as it is, and pooling them all gives the most precise baseline.
    if (e.speedup == 0) baseline.push_back(o);
    by_speedup[e.target][e.speedup].push_back(o);
    if (kSummaryBand.holds(e.speedup)) mid[e.target].push_back(o);
    if (kTopBand.holds(e.speedup)) top[e.target].push_back(o);
  }
  CausalAnalysis out;
  out.point = point;
  out.baseline_experiments = baseline.size();
  const Baseline base(std::move(baseline));
  for (std::uint32_t t = 0; t < data.targets.size(); ++t) {
    TargetResult r;
    r.target = t;
    r.cost_share = cost_shares[t];
    for (const auto& [speedup, group] : by_speedup[t]) r.curve.push_back({speedup, estimate(base, group)});
    r.summary = estimate(base, mid[t]);
    r.top = estimate(base, top[t]);
    r.flags = flags_of(r);
    out.targets.push_back(std::move(r));
  }
  std::sort(out.targets.begin(), out.targets.end(), ranks_before);
  return out;
}

}  // namespace bn::causal
