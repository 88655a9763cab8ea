#pragma once
// Why an attached load was refused, where the attaching tool can read it. jcmd's
// JVMTI.agent_load shows the attacher only Agent_OnAttach's return code ("return code: -1"), and
// report() writes to the target JVM's own standard error, often a server's log file: so the
// reason is also left in a system property, which `bottlenecks record --pid` reads with
// `jcmd PID VM.system_properties` (repl/cli/jvm_attach.cpp) and prints as its one-line error.

#include <jni.h>

#include <string>

namespace bn::agent {

inline constexpr const char* kRefusalProperty = "bottlenecks.agent.refused";

// Sets kRefusalProperty to `reason` through System.setProperty; does nothing if JNI is out of
// reach. Bytes outside printable ASCII become '?': JNI takes modified UTF-8 only, and a user's
// option text may hold anything.
void leave_refusal(JavaVM* vm, const std::string& reason);

}  // namespace bn::agent
