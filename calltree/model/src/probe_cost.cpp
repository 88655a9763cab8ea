#include "bn/calltree/probe_cost.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace bn::calltree {
std::optional<std::int64_t> recorded_picos_per_call(const Metadata& metadata) {
  const std::optional<std::string_view> text = metadata.find_extra("picos_per_call");
  if (!text) return std::nullopt;
  std::int64_t picos = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), picos);
  if (error != std::errc() || end != text->data() + text->size() || picos <= 0) return std::nullopt;
  return picos;
}

std::optional<ProbeCostEstimate> estimate_probe_cost(const CallTree& tree) {
  const std::optional<std::int64_t> picos = recorded_picos_per_call(tree.metadata());
  const std::optional<std::size_t> time = tree.find_metric("time");
  const std::optional<std::size_t> calls = tree.find_metric("calls");
  if (!picos || !time || !calls || tree.metric_spec(*time).unit != "ns" || tree.find_metric(kTimeLessProbes))
    return std::nullopt;

  const std::size_t n = tree.node_count();
  // Every node's calls plus its children's: the probe events at its
  // two ends (probe_cost.h).
  std::vector<__int128> events(n, 0);
  for (NodeId i = 0; i < n; ++i) {
    const Cost c = std::max<Cost>(tree.metric_cost(*calls, i), 0);
    events[i] += c;
    if (i != 0) events[tree.parent(i)] += c;
  }
  ProbeCostEstimate estimate{{{std::string(kTimeLessProbes), "ns"}, std::vector<Cost>(n)}, *picos, 0, 0};
  for (NodeId i = 0; i < n; ++i) {
    const Cost recorded = tree.metric_cost(*time, i);
    // Half of picos per event, in nanoseconds, rounded to the nearest.
    const __int128 probes = (events[i] * *picos + 1000) / 2000;
    const Cost kept = recorded <= 0 ? recorded : static_cast<Cost>(std::max<__int128>(recorded - probes, 0));
    estimate.time_less_probes.cost[i] = kept;
    estimate.recorded += recorded;
    estimate.removed += recorded - kept;
  }
  return estimate;
}

}  // namespace bn::calltree
