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

}  // namespace bn::causal::test
