#include "core/engine_factory.h"

#include "calltree/calltree_engine.h"
#include "core/options.h"
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

// The first row is the default mode. docs/recorder.md lists the modes for users.
constexpr EngineKind kEngines[] = {
    {"sample", "stacks and states of every thread at jittered intervals", make<SampleEngine>, kSampleMetrics,
     /*keeps_totals=*/true},
    {"calltree", "every call of every instrumented method: exact call counts and times per calling context",
     make<CallTreeEngine>, kCallTreeMetrics},
};

}  // namespace

std::span<const EngineKind> engine_kinds() { return kEngines; }

}  // namespace bn::agent
