#pragma once
// Test helper: causal experiments written as (target, speedup, effective time, progress).

#include <cstdint>
#include <string>
#include <vector>

#include "bn/calltree/causal_data.h"

namespace bn::causal::test {

// `targets` sequence targets named "t0", "t1", ... and one throughput progress point.
inline calltree::CausalData causal_data(std::size_t targets) {
  calltree::CausalData data;
  data.period_ns = 1'000'000;
  for (std::size_t t = 0; t < targets; ++t)
    data.targets.push_back({"t" + std::to_string(t), false, {{"a.B.m" + std::to_string(t)}}});
  data.points.push_back({"a.Server.reply", calltree::ProgressPoint::Kind::throughput});
  return data;
}

// An experiment lasting `effective` + `delay` ns with `progress` units at the one point.
inline void add(calltree::CausalData& data, std::uint32_t target, std::uint32_t speedup, std::int64_t effective,
                std::uint64_t progress, std::int64_t delay = 0) {
  calltree::CausalExperiment e;
  e.target = target;
  e.speedup = speedup;
  e.duration_ns = effective + delay;
  e.delay_ns = delay;
  e.progress = {progress};
  data.experiments.push_back(e);
}

// One latency point instead: an experiment there is its time in flight and its arrivals.
inline calltree::CausalData latency_data(std::size_t targets) {
  calltree::CausalData data = causal_data(targets);
  data.points = {{"a.Server.receive:a.Server.reply", calltree::ProgressPoint::Kind::latency}};
  return data;
}

// An experiment at the latency point: `arrivals` requests `area` ns in flight in all, over
// `duration` ns of which `delay` ns of inserted pauses (already out of the area: it is virtual).
inline void add_latency(calltree::CausalData& data, std::uint32_t target, std::uint32_t speedup, std::int64_t area,
                        std::uint64_t arrivals, std::int64_t duration = 1'000'000'000, std::int64_t delay = 0) {
  calltree::CausalExperiment e;
  e.target = target;
  e.speedup = speedup;
  e.duration_ns = duration;
  e.delay_ns = delay;
  e.progress = {arrivals};
  e.in_flight = {{arrivals, area}};
  data.experiments.push_back(e);
}

}  // namespace bn::causal::test
