#include "core/engine_factory.h"

#include "calltree/calltree_engine.h"
#include "causal/causal_engine.h"
#include "sample/sample_engine.h"

namespace bn::agent {
namespace {

template <class E>
std::unique_ptr<Engine> make(const EngineSetup& setup) {
  return std::make_unique<E>(setup);
}

constexpr EngineMetric kSampleMetrics[] = {{"samples", "samples"}};
// Exclusive ("self") nanoseconds, then calls (DrainedTrees::kTimeMetric, kCallsMetric).
constexpr EngineMetric kCallTreeMetrics[] = {{"time", "ns"}, {"calls", "count"}};

constexpr std::string_view kWithSampler[] = {"sample"};
// One row per mode of the option table (docs/recorder.md describes them for users).
constexpr EngineKind kEngines[] = {
    {"sample", make<SampleEngine>, kSampleMetrics, /*keeps_totals=*/true},
    {"calltree", make<CallTreeEngine>, kCallTreeMetrics},
    {"causal", make<CausalEngine>, {}, /*keeps_totals=*/false, kWithSampler},
};

}  // namespace

std::span<const EngineKind> engine_kinds() { return kEngines; }

}  // namespace bn::agent
