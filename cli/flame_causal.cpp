#include "flame_causal.h"

#include <string>

#include "bn/iface/call_pattern.h"

namespace bn::cli {
namespace {

flame::CausalEstimate estimate_of(const search::CausalEstimate& e) { return {e.experiments, e.speedup, e.low, e.high}; }

// The frames a click highlights: the innermost call of each summary. An aspect stands for many
// methods and a gap for none, so a target ending in either highlights nothing rather than a
// part of itself.
std::vector<std::string> frames_of(const search::CausalTargetLine& t) {
  std::vector<std::string> frames;
  for (const std::vector<std::string>& calls : t.summaries) {
    if (calls.empty() || calls.back().starts_with(':') || calls.back() == iface::kGapText) return {};
    frames.push_back(calls.back());
  }
  return frames;
}

}  // namespace

flame::CausalCharts causal_charts(const search::CausalReport& report) {
  flame::CausalCharts charts{search::causal_about(report, "--progress NAME"), {}};
  for (const search::CausalTargetLine& t : report.targets) {
    flame::CausalChart chart{t.name, t.is_label, frames_of(t), t.cost_share, estimate_of(t.summary), {}, {}};
    for (const search::CausalTargetLine::Point& p : t.curve)
      chart.points.push_back({p.speedup, estimate_of(p.estimate)});
    for (const search::CausalFlag& f : t.flags) chart.flags.push_back({f.name, f.explanation});
    charts.targets.push_back(std::move(chart));
  }
  return charts;
}

}  // namespace bn::cli
