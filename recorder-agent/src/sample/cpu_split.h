#pragma once
// JVMTI's RUNNABLE split into running, waiting for a CPU and not running (seed 000 sec. 5.2:
// only runnable threads compete for the CPU): per sample, the growth of the thread's schedstat
// counters since the previous reading. The counters are cumulative, so a reading that is
// skipped loses nothing: the next one's delta spans back to the last reading.
//
// A reading is skipped when the thread's CPU clock has not moved since the last one. A thread
// that has not run has the same time on a CPU, and the kernel adds run-queue time to
// `run_delay` only when a queued thread gets a CPU (sched_info_arrive; rarely when it is
// dequeued without running, e.g. migrated, which the next reading then carries), so the file
// would read the same. Idle threads that JVMTI calls RUNNABLE (in native code: a thread in
// accept(), the JDK's Signal Dispatcher and Reference Handler) then cost no /proc read.

#include <cstdint>

#include "bn/calltree/sample_data.h"
#include "core/os_thread.h"

namespace bn::agent {

class CpuSplit {
 public:
  // False if a reading now would repeat the last one: `clock_ns`, the thread's CPU clock read
  // this tick (-1 if unknown), equals the clock read before the last reading.
  bool worth_reading(std::int64_t clock_ns) const;
  // A reading `s` taken at `now_ns`, after the thread's CPU clock read `clock_ns`. Gives `r`
  // the deltas since the previous reading, unless this is the first one or a counter went
  // backwards (then `r` has no split and this reading is the new baseline).
  void on_reading(std::int64_t now_ns, std::int64_t clock_ns, const SchedStat& s, calltree::SampleRecord& r);
  // No reading at `now_ns` because worth_reading() was false: `r` gets no time on a CPU and
  // none in a run queue since the previous record. The counters' baseline stays, so run-queue
  // time the kernel books later is still counted once, by the next reading.
  void on_unchanged(std::int64_t now_ns, calltree::SampleRecord& r);

 private:
  bool has_baseline_ = false;
  std::int64_t time_ns_ = 0;    // of the previous record with a split
  std::int64_t clock_ns_ = -1;  // CPU clock read before the last reading; -1 unknown
  std::uint64_t run_ns_ = 0;    // counters at the last reading
  std::uint64_t wait_ns_ = 0;
};

}  // namespace bn::agent
