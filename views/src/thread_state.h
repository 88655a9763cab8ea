#pragma once
// What a recorded thread state means for typed time (seed 000 sec. 4). docs/views.md states the
// same definitions for users.

#include "bn/calltree/sample_data.h"

namespace bn::views::detail {

// Runnable: JVMTI RUNNABLE and not suspended. JVMTI also calls RUNNABLE a thread in native code
// that is blocked in a system call (accept, read, epoll_wait), which competes for no CPU; so a
// thread IN_NATIVE counts as runnable only when its schedstat figures show it on a CPU or in a
// run queue for at least half of its interval. Without figures it does not: most native time
// in a Java program is spent blocked.
inline bool is_runnable(const calltree::SampleRecord& r) {
  namespace s = calltree::thread_state;
  if ((r.state & s::kRunnable) == 0 || (r.state & s::kSuspended) != 0) return false;
  if ((r.state & s::kInNative) == 0) return true;
  return r.has_cpu && r.elapsed_ns > 0 && 2 * (r.run_ns + r.wait_ns) >= r.elapsed_ns;
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
