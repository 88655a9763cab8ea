#pragma once
// Loading the recorder agent into a running JVM (`bottlenecks record --pid`) with jcmd's
// JVMTI.agent_load, every failure told in one line. jcmd alone is no help there: it exits 0 when
// the JVM refused the library or the agent refused to start (it prints "return code: -1" or
// "... was not loaded."), and it prints a Java stack trace when it cannot attach at all, after
// waiting 10 s for a process that is no JVM.

#include <string>

namespace bn::cli {

// Throws Error unless `pid` names a running process of this user that has a JVM (libjvm.so)
// mapped: no such process, another user's, or not a JVM are told before jcmd runs.
void check_attachable(int pid);

// Runs `jcmd PID JVMTI.agent_load AGENT "OPTIONS"` and throws Error with what went wrong, if
// anything: jcmd could not attach, the JVM could not load the library, or the agent refused to
// start (a bad option, or a recording already in progress in that JVM).
void load_agent(const std::string& jcmd, int pid, const std::string& agent, const std::string& options);

// The agent's reason for refusing, from the output of `jcmd PID VM.system_properties` (the
// property bottlenecks.agent.refused, recorder-agent/src/core/attach_refusal.h, unescaped as
// java.util.Properties writes it); empty if it is not there.
std::string refusal_reason(const std::string& properties);

// What jcmd's exit status and output (stdout and stderr together) say went wrong, in one line
// without the "bottlenecks: error:" prefix; empty if the agent loaded and started.
std::string attach_failure(int pid, int exit_status, const std::string& output);

}  // namespace bn::cli
