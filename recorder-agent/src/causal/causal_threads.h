#pragma once
// The Java threads of a causal recording, each sampled by its own CPU-time timer (Coz samples
// each thread's CPU with perf events; timer_create on CLOCK_THREAD_CPUTIME_ID is the same
// without perf's permissions): every `period` of a thread's CPU, the kernel sends SIGVTALRM to
// that thread (SIGEV_THREAD_ID), and the handler, on the thread itself, walks its stack and pays
// its delays. A thread that does not run is not sampled and pays nothing until it runs again.
// SIGPROF is the sampler's (signal_stacks.h), which runs beside this engine; each handler
// blocks the other's signal, so AsyncGetCallTrace never walks a stack twice at once.
//
// A thread's state is its own: made and freed on the thread (ThreadStart, ThreadEnd), found
// through a thread-local pointer of the initial-exec model (a plain load in the handler: the
// general-dynamic model may allocate on a thread's first access).

#include <jvmti.h>

#include <cstdint>
#include <ctime>

#include "bn/agent/status.h"
#include "causal/delay_ledger.h"
#include "sample/signal_stacks.h"

namespace bn::agent {

struct CausalThread {
  DelayLedger::Account account;
  timer_t timer{};
  bool timer_live = false;  // guarded by the registry's mutex (causal_threads.cpp)
  jint max_frames = 0;
  AsyncFrame* frames = nullptr;  // max_frames each
  std::uint64_t* bits = nullptr;
};

class CausalThreads {
 public:
  // Called in the handler for each sample of a thread (its own state). `periods`: the sampling
  // periods of CPU time the sample stands for. The kernel checks CPU timers at its scheduler tick
  // (every 4 ms at HZ=250), so a 1 ms timer fires once per tick with the periods it missed as its
  // overrun, and a sample stands for 1 + overrun periods.
  using OnSample = void (*)(CausalThread& thread, void* ucontext, std::int64_t periods);

  // Installs the SIGVTALRM handler; fails if the signal has a handler already.
  static Status install(OnSample on_sample);
  // The calling thread's state and timer, sampling every `period_ns` of its CPU; null if the
  // kernel refused a timer (counted by the caller). `ledger` opens its account.
  static CausalThread* attach_current(std::int64_t period_ns, jint max_frames, const DelayLedger& ledger);
  // The calling thread ends: its timer is deleted and its state freed.
  static void detach_current();
  // The calling thread's state, or null.
  static CausalThread* current();
  // The recording ended: every thread's timer is deleted (timers belong to the process, so any
  // thread may); the threads keep their state until they end.
  static void stop_all();
};

}  // namespace bn::agent
