#pragma once
// The recording modes: one table row per engine, {mode name, description, factory}. Option parsing validates `mode=`
// against it (and takes the first row as the default), and the agent builds the engine of the row the parsed options
// name. Adding an engine is one row in engine_factory.cpp (engine.h says what the class provides).

#include <jvmti.h>

#include <memory>
#include <span>
#include <string_view>

#include "core/engine.h"

namespace bn::agent {

struct Options;

// What an engine is built from, in Agent_OnLoad/OnAttach.
struct EngineSetup {
  JavaVM* vm;
  jvmtiEnv* jvmti;
  const Options& options;  // valid only during the call: an engine copies what it keeps
  bool attached;           // Agent_OnAttach: the VM is live and start() follows at once
};

struct EngineKind {
  std::string_view mode;                                        // the value of mode=
  std::string_view description;                                 // what it records, for the message naming the modes
  std::unique_ptr<Engine> (*create)(const EngineSetup& setup);  // may throw std::bad_alloc
};

// Every engine; the first is the default mode.
std::span<const EngineKind> engine_kinds();

inline const EngineKind* find_engine_kind(std::span<const EngineKind> kinds, std::string_view mode) {
  for (const EngineKind& kind : kinds)
    if (kind.mode == mode) return &kind;
  return nullptr;
}

}  // namespace bn::agent
