#include "flame_causal.h"

#include <string>

#include "bn/iface/call_pattern.h"
#include "bn/search/text.h"

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

// As the header of `causal` says it.
std::string about_of(const search::CausalReport& r) {
  std::string about = "causal experiments: " + std::to_string(r.experiments) + " (" +
                      std::to_string(r.baseline_experiments) + " at 0%, the baseline) from " +
                      search::counted(r.recordings, "recording") + ", progress at " + r.progress;
  if (r.points.size() > 1) about += " (one of " + std::to_string(r.points.size()) + ": --progress NAME)";
  // At a latency point y is no throughput: say what it is, as `causal` does.
  if (r.progress_kind == "latency") about += "; a latency point: y is how much shorter its mean latency gets";
  return about;
}

}  // namespace

flame::CausalCharts causal_charts(const search::CausalReport& report) {
  flame::CausalCharts charts{about_of(report), {}};
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
