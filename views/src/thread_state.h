#pragma once
// What a recorded thread state means for typed time (seed 000 sec. 4). docs/views.md states the
// same definitions for users.

#include "bn/calltree/sample_data.h"

namespace bn::views::detail {

// Runnable: JVMTI RUNNABLE and not suspended, unless the record's schedstat figures show the
// thread idle. JVMTI also calls RUNNABLE a thread blocked in a system call (in native code:
// accept, read, epoll_wait) or inside the VM (the Signal Dispatcher, the Reference Handler in
// waitForReferencePendingList); counted as competing for a CPU they would give every real thread
// a phantom share of :LOAD. So, with figures: in native code, runnable when on a CPU or in a run
// queue for at least half of its interval; in Java code, unless it spent no time at all on a CPU
// or in a run queue. Without figures (a thread's first record, an unknown OS id): in Java code,
// runnable; in native code, not (most native time in a Java program is spent blocked).
inline bool is_runnable(const calltree::SampleRecord& r) {
  namespace s = calltree::thread_state;
  if ((r.state & s::kRunnable) == 0 || (r.state & s::kSuspended) != 0) return false;
  const bool native = (r.state & s::kInNative) != 0;
  if (!r.has_cpu) return !native;
  return native ? 2 * (r.run_ns + r.wait_ns) >= r.elapsed_ns && r.elapsed_ns > 0 : r.run_ns + r.wait_ns > 0;
}

// :MONITOR rather than :WAIT: blocked entering a synchronized block or method. Threads waiting
// for java.util.concurrent locks are parked (JVMTI WAITING), so their time is :WAIT.
inline bool is_blocked_on_monitor(const calltree::SampleRecord& r) {
  return (r.state & calltree::thread_state::kBlockedOnMonitorEnter) != 0;
}

// The record carries a CPU split the measured model uses (the recorder takes one only for
// RUNNABLE threads).
inline bool has_cpu_split(const calltree::SampleRecord& r) {
  return r.has_cpu && (r.state & calltree::thread_state::kRunnable) != 0;
}

}  // namespace bn::views::detail
