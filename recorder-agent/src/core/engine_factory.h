#pragma once
// The recording engines: one table row per engine, {mode name, factory, metrics}. The modes
// themselves (name, description, the default) are the option table's (bn/agent/option_table.h),
// which `bottlenecks record` reads too; every mode there has exactly one row here
// (tests/agent/option_table_test.cpp). The agent builds a recording of the engines of the rows
// the parsed options name: the row of `mode=`, after its companions' rows. Adding an engine is one row in
// engine_factory.cpp and one in option_table.cpp (engine.h says what the class provides).

#include <jvmti.h>

#include <memory>
#include <span>
#include <string_view>

#include "core/engine.h"

namespace bn::agent {

// A metric an engine adds to every node of the recording's tree (calltree/model metric.h): a name
// and a unit, e.g. {"calls", "count"}.
struct EngineMetric {
  std::string_view name;
  std::string_view unit;
};

struct EngineKind {
  std::string_view mode;                                        // a row of modes(): the value of mode=
  std::unique_ptr<Engine> (*create)(const EngineSetup& setup);  // may throw std::bad_alloc
  // The metrics its costs go in, the first the one it counts in (FrameTree metric 0 of a
  // recording it is the first engine of); they follow the metrics of the engines before it.
  std::span<const EngineMetric> metrics = {};
  // Whether it needs each node's total cost, not only what was added since the last flush
  // (FrameTree::Totals): for snapshots of the tree so far.
  bool keeps_totals = false;
  // Modes whose engines record beside it, before it, in the same recording (the causal mode's
  // experiments come with the sampler's call tree of the same run).
  std::span<const std::string_view> companions = {};
};

// Every engine.
std::span<const EngineKind> engine_kinds();

inline const EngineKind* find_engine_kind(std::span<const EngineKind> kinds, std::string_view mode) {
  for (const EngineKind& kind : kinds)
    if (kind.mode == mode) return &kind;
  return nullptr;
}

}  // namespace bn::agent
