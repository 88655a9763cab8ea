#include "causal_report.h"

#include <algorithm>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/causal/analysis.h"
#include "bn/iface/coverage.h"
#include "bn/search/aspects.h"

namespace bn::cli {
namespace {

std::size_t point_index(const calltree::CausalData& data, std::string_view progress) {
  if (progress.empty()) return 0;
  for (std::size_t i = 0; i < data.points.size(); ++i)
    if (data.points[i].name == progress) return i;
  std::string known;
  for (const calltree::ProgressPoint& p : data.points) known += (known.empty() ? "" : ", ") + p.name;
  throw Error("no progress point '" + std::string(progress) + "' (recorded: " + known + ")");
}

// The share of `profile` that the target's summaries cover together (a sample counts once
// however many of them it satisfies), in the aspects the recording defined. Summaries that
// match nothing count nothing; one that breaks a rule of call sequences is a note.
double cost_share(const calltree::CausalTarget& target, iface::Profile& profile, const search::AspectTable& aspects,
                  std::vector<std::string>& notes) {
  std::vector<iface::Summary> summaries;
  for (const std::vector<std::string>& calls : target.summaries) {
    const std::vector<std::string_view> frames(calls.begin(), calls.end());
    try {
      if (std::optional<iface::Summary> s = search::summary_of_frames(profile, frames, aspects))
        summaries.push_back(*s);
    } catch (const Error& e) {
      notes.push_back("target " + target.name + ": " + e.what() + "; its cost share counts without it");
    }
  }
  const iface::Coverage covered = iface::coverage(profile, summaries);
  if (covered.total == 0) return 0;
  return static_cast<double>(covered.cum) / static_cast<double>(covered.total);
}

std::string kind_name(calltree::ProgressPoint::Kind kind) {
  switch (kind) {
    case calltree::ProgressPoint::Kind::throughput:
      return "throughput";
    case calltree::ProgressPoint::Kind::end:
      return "end";
    case calltree::ProgressPoint::Kind::latency:
      return "latency";
  }
  return "";
}

search::CausalEstimate estimate_line(const causal::Estimate& e) {
  search::CausalEstimate out{e.experiments, e.speedup, std::nullopt, std::nullopt};
  if (e.interval) {
    out.low = e.interval->low;
    out.high = e.interval->high;
  }
  return out;
}

}  // namespace

search::CausalReport causal_report(const calltree::CausalData& data, std::size_t recordings, iface::Profile& profile,
                                   std::string_view progress) {
  if (data.empty() || data.points.empty()) throw Error(std::string(search::kNoCausalExperiments));
  const std::size_t point = point_index(data, progress);
  search::CausalReport out;
  out.progress = data.points[point].name;
  out.progress_kind = kind_name(data.points[point].kind);
  for (const calltree::ProgressPoint& p : data.points) out.points.push_back(p.name);
  out.experiments = data.experiments.size();
  out.recordings = recordings;
  search::AspectTable aspects;
  for (const auto& [name, pattern] : data.aspects) {
    try {
      aspects.define(profile, name, pattern);
    } catch (const Error& e) {
      out.notes.push_back("aspect " + name + ": " + e.what());
    }
  }
  std::vector<double> shares;
  shares.reserve(data.targets.size());
  for (const calltree::CausalTarget& t : data.targets) shares.push_back(cost_share(t, profile, aspects, out.notes));
  const causal::CausalAnalysis analysis = causal::analyze(data, point, shares);
  out.baseline_experiments = analysis.baseline_experiments;
  for (const causal::TargetResult& r : analysis.targets) {
    const calltree::CausalTarget& t = data.targets[r.target];
    search::CausalTargetLine line{t.name, t.is_label, t.summaries, r.cost_share, estimate_line(r.summary), {}, {}};
    for (const causal::CurvePoint& p : r.curve) line.curve.push_back({p.speedup, estimate_line(p.estimate)});
    for (const causal::Flag f : r.flags)
      line.flags.push_back({std::string(causal::flag_name(f)), std::string(causal::flag_explanation(f))});
    out.targets.push_back(std::move(line));
  }
  return out;
}

}  // namespace bn::cli
