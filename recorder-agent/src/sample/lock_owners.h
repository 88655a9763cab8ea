#pragma once
// The thread that holds what a waiting thread waits for, at bounded cost and without stopping
// the world.
//
// Monitors (BLOCKED_ON_MONITOR_ENTER). JVMTI's GetObjectMonitorUsage runs at a safepoint on
// JDK 17: one per blocked thread per tick stopped the JVM for 4.6 s of 9.7 s with 20 threads
// blocked on one monitor. Instead, per tick: the monitor each blocked thread waits for
// (GetCurrentContendedMonitor, a handshake that the sampler runs itself, since the thread is
// blocked; kept from the previous tick while the thread has not run, as it cannot have left
// the monitor without running), the blocked threads grouped by monitor, and at most one owner
// lookup per monitor, all in one call. None at all for a monitor whose owner, as last looked
// up, has not run since (its CPU clock, read for its own sample, stands still): it cannot have
// let go without running, so the common case of a holder that sleeps, waits or blocks while
// holding costs no lookup after the first. The lookup is ThreadMXBean.getThreadInfo(ids, 0) of one waiter per monitor,
// whose getLockOwnerId() HotSpot answers without a safepoint when no stack is asked for
// (management.cpp, jmm_GetThreadInfo: "no stack trace to dump so we do not need to stop the
// world"). Only a runtime without the java.management module falls back to
// GetObjectMonitorUsage, still one per monitor per tick, its time counted as time the VM was
// stopped.
//
// java.util.concurrent locks (PARKED with a blocker that is an AbstractOwnableSynchronizer,
// e.g. a ReentrantLock's sync): the owner is the synchronizer's exclusiveOwnerThread, the
// field getExclusiveOwnerThread() returns, read with JNI (no Java call, no safepoint); a
// shared or unowned synchronizer (a read lock, a semaphore) has none. A parked thread's
// blocker is set by the thread itself, so one that has not run since it was found not to be
// parked on a synchronizer is not looked at again.

#include <jvmti.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "bn/calltree/metadata.h"
#include "bn/calltree/sample_data.h"
#include "sample/thread_registry.h"

namespace bn::agent {

class LockOwners {
 public:
  LockOwners(jvmtiEnv* jvmti, ThreadRegistry& registry, int cpus);

  // Whether JVMTI granted GetCurrentContendedMonitor (and GetObjectMonitorUsage); without it
  // blocked threads get no owner.
  void set_monitors_available(bool available) { monitors_available_ = available; }
  bool monitors_available() const { return monitors_available_; }

  // A thread found BLOCKED_ON_MONITOR_ENTER in this tick, whose record is `at` in the tick's
  // records; `has_not_run`: its CPU clock and state are those of its previous sample.
  void note_blocked(JNIEnv* jni, jthread thread, const ThreadRecord& record, bool has_not_run, std::size_t at);
  // The owner (thread index, or kNoThread) of the synchronizer a PARKED thread is parked on.
  std::uint32_t parked_owner(JNIEnv* jni, jthread thread, ThreadRecord& record, bool has_not_run);
  // After every thread of the tick was sampled: one owner lookup per monitor noted, written to
  // records[at].owner; `held_ns` grows by the time running threads were stopped for it.
  void resolve(JNIEnv* jni, std::vector<calltree::SampleRecord>& records, std::int64_t& held_ns);

  // CPU time of one-time set-up since the last call, which is not a cost per tick (Pacer).
  std::int64_t take_one_time_ns() { return std::exchange(unpaced_ns_, 0); }

  // owner_lookups, owners_reused, owner_lookup_cpu_ns, owner_lookup_setup_cpu_ns,
  // owner_lookup_vm_stopped_ns, owner_lookup_method.
  void describe(calltree::Metadata& m) const;

 private:
  // What a lookup found: the owner's Java id (-1 none) and its CPU clock as read in that tick.
  struct Owner {
    std::int64_t java_id = -1;
    std::int64_t cpu_ns = -1;
  };
  struct Blocked {
    std::int64_t java_id;
    jobject monitor;  // global reference, kept while the thread stays blocked
    std::uint64_t tick;
    std::vector<std::size_t> at;  // this tick's records (one, unless the thread is listed twice)
    Owner owner;                  // of `monitor`, as last looked up
  };
  // Sets owner_of[g] for every group g in `asked` (first_of[g]: its first waiter in blocked_).
  void look_up(JNIEnv* jni, const std::vector<std::size_t>& first_of, const std::vector<std::size_t>& asked,
               std::vector<std::int64_t>& owner_of, std::int64_t& held_ns);
  bool find_thread_info(JNIEnv* jni);
  // Owners (Java thread ids, -1 unknown) of the monitors the threads `waiters` wait for.
  bool owners_by_thread_info(JNIEnv* jni, const std::vector<std::int64_t>& waiters, std::vector<std::int64_t>& out);
  std::int64_t owner_by_monitor_usage(JNIEnv* jni, jobject monitor, std::int64_t& held_ns);
  // Whether `owner` still holds the monitor it was found holding: it has not run since.
  bool still_holds(const Owner& owner);
  // The owner's CPU clock as read in this tick's sample of it (-1 unknown).
  std::int64_t clock_of(std::int64_t java_id);
  std::uint32_t index_of(JNIEnv* jni, jthread owner);
  std::uint32_t index_of_java_id(std::int64_t java_id);

  jvmtiEnv* jvmti_;
  ThreadRegistry& registry_;
  int cpus_;
  bool monitors_available_ = false;
  std::uint64_t tick_ = 0;
  std::vector<Blocked> blocked_;  // threads blocked now or in the previous tick

  // ThreadMXBean.getThreadInfo(long[], int) and ThreadInfo.getLockOwnerId(); found once.
  enum class Lookup { kUnknown, kThreadInfo, kMonitorUsage } lookup_ = Lookup::kUnknown;
  jobject thread_bean_ = nullptr;  // global
  jmethodID get_thread_info_ = nullptr;
  jmethodID get_lock_owner_id_ = nullptr;
  // Thread.parkBlocker, AbstractOwnableSynchronizer and its exclusiveOwnerThread; found once.
  bool aqs_looked_up_ = false;
  jfieldID park_blocker_ = nullptr;
  jclass synchronizer_class_ = nullptr;  // global
  jfieldID exclusive_owner_ = nullptr;

  std::uint64_t lookups_ = 0;
  std::uint64_t reused_ = 0;    // a monitor's owner known without a lookup
  std::int64_t lookup_ns_ = 0;  // the lookups' CPU time, set-up excluded
  std::int64_t setup_ns_ = 0;
  std::int64_t unpaced_ns_ = 0;
  std::int64_t stopped_ns_ = 0;
};

}  // namespace bn::agent
