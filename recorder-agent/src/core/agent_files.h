#pragma once
// The files the Java side of mode=calltree and mode=causal needs besides the agent itself: two jars, installed beside
// libbottlenecks-agent.so (the build puts them there; the transformer's holds ASM, relocated). A
// user loads only -agentpath:...; the agent finds the rest from its own location.

#include <string>

#include "bn/agent/status.h"

namespace bn::agent {

struct AgentFiles {
  std::string runtime_jar;      // bottlenecks-runtime.jar: on the boot class path
  std::string transformer_jar;  // bottlenecks-transformer.jar: the transformer and ASM
};

// Not ok if a file is missing: the message names it and `mode`, the mode that needs it.
Status find_agent_files(const std::string& mode, AgentFiles& out);

}  // namespace bn::agent
