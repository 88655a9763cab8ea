// The pseudo thread classes of the process's threads that are not Java threads the sampler
// samples (recorder-agent/src/sample/jvm_threads.cpp), by their kernel names as HotSpot JDK 17
// sets them (15 bytes), seen with each of its collectors.

#include "sample/jvm_threads.h"

#include <doctest/doctest.h>

#include <string>

using bn::agent::jvm_thread_class;

TEST_CASE("HotSpot's JIT compiler threads, and the code cache sweeper, are the JIT compiler") {
  for (const char* comm :
       {"C2 CompilerThre", "C1 CompilerThre", "JVMCI CompilerT", "JVMCI-native Co", "Sweeper thread"})
    CHECK_MESSAGE(jvm_thread_class(comm) == "[JVM JIT compiler]", comm);
}

TEST_CASE("every collector's threads are the GC: G1, Parallel, ZGC, Shenandoah, string deduplication") {
  for (const char* comm : {"GC Thread#0", "GC Thread#12", "G1 Main Marker", "G1 Conc#0", "G1 Refine#3", "G1 Service",
                           "ZDirector", "ZDriver", "ZStat", "ZUncommitter", "ZUnmapper", "ZWorker#1", "RuntimeWorker#0",
                           "Shenandoah Cont", "Shenandoah GC T", "StringDedupProc"})
    CHECK_MESSAGE(jvm_thread_class(comm) == "[JVM GC]", comm);
}

TEST_CASE("the VM thread, the periodic task thread and the agent's own threads have classes of their own") {
  CHECK(jvm_thread_class("VM Thread") == "[JVM VM thread]");
  CHECK(jvm_thread_class("VM Periodic Tas") == "[JVM periodic task]");
  CHECK(jvm_thread_class("bottlenecks-sam") == bn::agent::kAgentThreadClass);
  CHECK(jvm_thread_class("bottlenecks-cal") == bn::agent::kAgentThreadClass);
}

TEST_CASE("any other thread is other JVM, and a near miss of a prefix is not taken for it") {
  for (const char* comm :
       {"Service Thread", "Monitor Deflati", "java", "", "C2", "GC Thread", "Zookeeper-1", "g1 conc#0", "VM"})
    CHECK_MESSAGE(jvm_thread_class(comm) == bn::agent::kOtherJvmThreadClass, comm);
}

TEST_CASE("every class begins with an opening bracket and JVM, as no Java class name does, and the views group them") {
  for (const char* comm : {"C2 CompilerThre", "GC Thread#0", "VM Thread", "VM Periodic Tas", "bottlenecks-sam", "java"})
    CHECK_MESSAGE(jvm_thread_class(comm).starts_with("[JVM "), comm);
}
