#pragma once
// The Java threads of a causal recording, each sampled by a clock of its own CPU time: every
// `period` of a thread's CPU, the kernel signals that thread (SIGVTALRM), and the handler, on the
// thread itself, walks its stack and pays its delays. A thread that does not run is not sampled
// and pays nothing until it runs again.
//
// The clock is a perf task-clock event of the thread (Coz's choice): an hrtimer, so a sample
// lands after exactly one period of the thread's CPU, at the instruction it was running. Where
// perf events are refused (kernel.perf_event_paranoid = 3, Debian's default for users other
// than root), a POSIX CPU-time timer stands in; the kernel checks those only at its scheduler
// tick, so a sample stands for the periods since the last one (1 + the timer's overrun) and is
// taken where the thread happens to be at the tick: CPU used just before a pause is charged to
// whatever runs after it, which blurs the attribution the experiments rely on
// (docs/causal.md). The metadata says which clock sampled.
//
// SIGPROF is the sampler's (signal_stacks.h), which runs beside this engine; each handler blocks
// the other's signal, so AsyncGetCallTrace never walks one stack twice at once. A thread's state
// is its own: made and freed on the thread (ThreadStart, ThreadEnd), found through a
// thread-local pointer of the initial-exec model (a plain load in the handler: the general-
// dynamic model may allocate on a thread's first access).

#include <jvmti.h>

#include <cstdint>
#include <ctime>

#include "bn/agent/status.h"
#include "causal/delay_ledger.h"
#include "sample/signal_stacks.h"

namespace bn::agent {

struct CausalThread {
  DelayLedger::Account account;
  int perf_fd = -1;  // the perf event, or -1 if the timer samples
  timer_t timer{};
  bool clock_live = false;     // guarded by the registry's mutex (causal_threads.cpp)
  std::int64_t period_ns = 0;  // what its clock is armed with
  jint max_frames = 0;
  AsyncFrame* frames = nullptr;  // max_frames each
  std::uint64_t* bits = nullptr;
};

class CausalThreads {
 public:
  // Called in the handler for each sample of a thread (its own state), standing for `periods`
  // sampling periods of its CPU.
  using OnSample = void (*)(CausalThread& thread, void* ucontext, std::int64_t periods);

  // Installs the SIGVTALRM handler; fails if the signal has a handler already.
  static Status install(OnSample on_sample);
  // The calling thread's state and clock, sampling every `period_ns` of its CPU; null if the
  // kernel gave no clock (counted by the caller). `ledger` opens its account.
  static CausalThread* attach_current(std::int64_t period_ns, jint max_frames, const DelayLedger& ledger);
  // The calling thread ends: its clock is closed and its state freed.
  static void detach_current();
  // The calling thread's state, or null.
  static CausalThread* current();
  // In the handler, on `thread`: its clock samples every `period_ns` from now on.
  static void set_period(CausalThread& thread, std::int64_t period_ns);
  // The recording ended: every thread's clock is closed (perf events and timers belong to the
  // process, so any thread may); the threads keep their state until they end.
  static void stop_all();
  // Threads sampled by perf events, and by timers.
  static std::uint64_t perf_threads();
  static std::uint64_t timer_threads();
};

}  // namespace bn::agent
