#pragma once
// What the call-tree recorder's probes add to exclusive times, and the time without it.
//
// The probes run inside the program (docs/recorder.md, "Call-tree mode"): each instrumented call
// runs Probe.enter and Probe.exit, and their time goes to whichever calling context is current
// while they run. enter's lookups run before the callee's node becomes current and exit's after
// it stops being so, so a call's probe time divides between the caller and the callee. A method
// called millions of times, or calling millions of short methods, then shows exclusive time that
// is mostly the recorder's own: on Xalan, HighBase led with such methods.
//
// The recorder measures what one call costs under the probes (Calibration.java, metadata
// `picos_per_call`). The estimate charges half of it to the callee and half to the caller for
// every call: a node's estimated probe time is c/2 · (its calls + its children's calls), and its
// time less probes is its recorded exclusive time less that, never below zero. It is an
// estimate of the steady state; what the probes do to the JIT's inlining of the program is in
// neither figure.

#include <cstdint>
#include <optional>
#include <string_view>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/metric.h"

namespace bn::calltree {

// The derived metric's name, as `set metric` and `--metric` take it.
inline constexpr std::string_view kTimeLessProbes = "time-less-probes";

struct ProbeCostEstimate {
  MetricColumn time_less_probes;  // per node, in the tree's node order; unit "ns"
  std::int64_t picos_per_call = 0;
  Cost recorded = 0;  // the recorded time's total
  Cost removed = 0;   // what time_less_probes leaves out of it
};

// What one instrumented call cost under the probes, as the recorder measured it (metadata
// `picos_per_call`); nullopt when it is absent or not a positive integer.
std::optional<std::int64_t> recorded_picos_per_call(const Metadata& metadata);

// The estimate for a call-tree recording with metrics `time` (ns) and `calls` and a calibrated
// `picos_per_call` > 0 in its metadata; nullopt for any other profile, and for one that has
// the derived metric already.
std::optional<ProbeCostEstimate> estimate_probe_cost(const CallTree& tree);

}  // namespace bn::calltree
