#pragma once
// Where Java threads block and wake, for the delay ledger's rule on blocked threads
// (delay_ledger.h): a thread woken by another has its delays accrued while blocked credited, and
// a thread about to wake others pays what it owes first (Coz wraps pthread's mutexes and condition
// variables for the same reason).
// - Monitors: JVMTI's MonitorContendedEnter/Entered (a `synchronized` that had to wait: the owner
//   woke it by leaving) and MonitorWait/Waited (Object.wait, and Thread.join, which waits on the
//   thread; Waited says whether it timed out).
// - java.util.concurrent (locks, queues, thread pools): every wait is Unsafe.park and every wake
//   Unsafe.unpark, both natives. The agent rebinds them to wrappers that call the JVM's own
//   functions in between (through UnsafeBinding.java, which says why). Their addresses come from
//   NativeMethodBind: Unsafe binds its natives
//   during the JVM's primordial phase, when no method can be named yet, so every bind's
//   (method, address) is kept until start() can name Unsafe's park and unpark.
// A thread about to block pays what it owes first, while it holds nothing it is about to need:
// in the program sped up, those delays would have made it reach the monitor or the queue later,
// and a thread that waits anyway absorbs them in its wait. Paid later, at its next sample, they
// would land wherever it runs next, often inside the critical section it just entered, and stall
// every thread queued behind it (Object.wait, which releases its monitor, needs this twice over).
// A park that returns at its deadline timed out (its wait did not grow with the others'); any
// other return counts as woken by another thread. Thread.sleep and I/O have no hook: their delays
// are paid at the thread's next sample, as Coz does for waits it does not wrap. A monitor's owner
// pays what it owes at its next sample, not as it leaves the monitor (no event): the thread it
// wakes may be credited up to one sampling period of delays too many.

#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "bn/agent/status.h"
#include "causal/delay_ledger.h"

namespace bn::agent {

class BlockingHooks {
 public:
  explicit BlockingHooks(DelayLedger& ledger) : ledger_(ledger) {}

  // NativeMethodBind, any phase.
  void native_bound(jmethodID method, void* address);
  // Rebinds Unsafe.park and unpark to the wrappers (the live phase; the runtime jar is on the
  // boot class path); not ok if the JVM did not tell where they were bound (then waits in
  // java.util.concurrent are not credited).
  Status wrap_park(JNIEnv* jni);
  // The recording ended: the wrappers only call the JVM's functions from now on.
  void stop();

  // The JVMTI monitor events, on the thread concerned.
  void contended_enter();
  void contended_entered();
  void wait();
  void waited(bool timed_out);

  std::uint64_t parks() const { return parks_.load(std::memory_order_relaxed); }

 private:
  friend struct ParkWrappers;
  // Pays what the thread owes, then notes where the ledger stands.
  void before_block();
  void after_block(bool woken_by_other);
  void catch_up();

  DelayLedger& ledger_;
  std::mutex mutex_;
  std::vector<std::pair<jmethodID, void*>> bound_;  // guarded by mutex_
  bool collecting_ = true;                          // guarded by mutex_: until wrap_park
  std::atomic<std::uint64_t> parks_{0};
};

}  // namespace bn::agent
