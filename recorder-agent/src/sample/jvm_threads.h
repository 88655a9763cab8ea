#pragma once
// The threads of the process that are not Java threads the sampler sees: HotSpot's JIT compiler
// threads (Java threads to HotSpot, but hidden from JVMTI), its garbage collector, VM thread and
// periodic task thread, the agent's own sampler, and whatever else runs in the process. Their CPU
// is part of the program's cost (on a two-CPU machine C2 alone can take a third of the process's
// CPU), so the sampler reads it from schedstat like a Java thread's and records it under one
// pseudo thread class per kind, whose one frame has the same name (native_threads.h). The kind
// comes from the thread's kernel name (/proc/self/task/TID/comm, which HotSpot sets from its own
// name, truncated to 15 bytes): one table of name prefixes in jvm_threads.cpp, documented in
// docs/recorder.md ("Threads that are not Java threads").
//
// Every such class begins "[JVM ": no Java class is named so, and the views group these classes
// as the JVM's threads, apart from the program's.

#include <string_view>

namespace bn::agent {

// The agent's own sampler: a Java thread the sampler never samples, whose CPU is the cost of
// sampling.
inline constexpr std::string_view kAgentThreadClass = "[JVM bottlenecks agent]";
// A thread no prefix of the table names: the launcher's first thread, a native library's.
inline constexpr std::string_view kOtherJvmThreadClass = "[JVM other]";

// The pseudo thread class of a thread by its kernel name; kOtherJvmThreadClass when no prefix of
// the table matches. The view is of static storage.
std::string_view jvm_thread_class(std::string_view comm);

}  // namespace bn::agent
