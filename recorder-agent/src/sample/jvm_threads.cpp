#include "sample/jvm_threads.h"

#include <array>

namespace bn::agent {
namespace {

constexpr std::string_view kJit = "[JVM JIT compiler]";
constexpr std::string_view kGc = "[JVM GC]";
constexpr std::string_view kVmThread = "[JVM VM thread]";
constexpr std::string_view kPeriodic = "[JVM periodic task]";

// HotSpot JDK 17's thread names as the kernel shows them (15 bytes), by kind; the first matching
// prefix decides. Seen with each collector (G1, Parallel, Serial, ZGC, Shenandoah, Epsilon):
// - JIT: "C1 CompilerThread0", "C2 CompilerThread0" (more are started and stopped as the queues
//   grow and drain: UseDynamicNumberOfCompilerThreads), "JVMCI CompilerThread0" and
//   "JVMCI-native CompilerThread0" (Graal), and the "Sweeper thread" that empties the code cache
//   of the JIT's discarded code;
// - GC: G1's "GC Thread#0", "G1 Main Marker", "G1 Conc#0", "G1 Refine#0", "G1 Service";
//   Parallel's "GC Thread#0"; ZGC's "ZDirector", "ZDriver", "ZStat", "ZUncommitter",
//   "ZUnmapper", "ZWorker#0" and its "RuntimeWorker#0" (safepoint clean-up); Shenandoah's
//   "Shenandoah Control Thread" and "Shenandoah GC Threads#0"; "StringDedupProcessor"
//   (-XX:+UseStringDeduplication). Serial and Epsilon have no GC thread: Serial collects on the
//   VM thread;
// - the VM thread, which runs every safepoint operation (and Serial's collections);
// - the periodic task thread ("VM Periodic Task Thread": sampling counters, statistics);
// - the agent's threads ("bottlenecks-sampler"; the sampler is also known by its tid);
// - anything else is kOtherJvmThreadClass: "Service Thread", "Monitor Deflation Thread", the
//   launcher's first thread ("java", which only waits), and threads a native library started.
struct Prefix {
  std::string_view prefix;
  std::string_view thread_class;
};
constexpr std::array kPrefixes = {
    Prefix{"C1 CompilerThre", kJit}, Prefix{"C2 CompilerThre", kJit},  Prefix{"JVMCI", kJit},
    Prefix{"Sweeper thread", kJit},  Prefix{"GC Thread#", kGc},        Prefix{"G1 ", kGc},
    Prefix{"ZDirector", kGc},        Prefix{"ZDriver", kGc},           Prefix{"ZStat", kGc},
    Prefix{"ZUncommitter", kGc},     Prefix{"ZUnmapper", kGc},         Prefix{"ZWorker", kGc},
    Prefix{"RuntimeWorker#", kGc},   Prefix{"Shenandoah", kGc},        Prefix{"StringDedupProc", kGc},
    Prefix{"VM Thread", kVmThread},  Prefix{"VM Periodic", kPeriodic}, Prefix{"bottlenecks-", kAgentThreadClass},
};

}  // namespace

std::string_view jvm_thread_class(std::string_view comm) {
  for (const Prefix& p : kPrefixes)
    if (comm.starts_with(p.prefix)) return p.thread_class;
  return kOtherJvmThreadClass;
}

}  // namespace bn::agent
