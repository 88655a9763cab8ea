#pragma once
// Per-sample records of the sampling recorder (seed 000 sec. 5.1: a sample is every thread's
// stack plus its run state, awaited monitor and priority): the thread table, the ticks and one
// record per live thread per tick. The native format keeps them in ancillary chunks
// (sample_records.h); the typed-time views read them.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bn/calltree/types.h"

namespace bn::calltree {

inline constexpr std::uint32_t kNoThread = std::numeric_limits<std::uint32_t>::max();

// JVMTI thread state bits (jvmti.h, GetThreadState) the analyzer needs; the recorder stores
// the full JVMTI word.
namespace thread_state {
inline constexpr std::uint32_t kAlive = 0x0001;
inline constexpr std::uint32_t kTerminated = 0x0002;
inline constexpr std::uint32_t kRunnable = 0x0004;
inline constexpr std::uint32_t kBlockedOnMonitorEnter = 0x0400;
inline constexpr std::uint32_t kWaitingIndefinitely = 0x0010;
inline constexpr std::uint32_t kWaitingWithTimeout = 0x0020;
inline constexpr std::uint32_t kSleeping = 0x0040;
inline constexpr std::uint32_t kWaiting = 0x0080;
inline constexpr std::uint32_t kInObjectWait = 0x0100;
inline constexpr std::uint32_t kParked = 0x0200;
inline constexpr std::uint32_t kSuspended = 0x100000;
inline constexpr std::uint32_t kInNative = 0x400000;
}  // namespace thread_state

struct ThreadEntry {
  std::uint32_t index = 0;   // dense, assigned by the recorder in order of first sight
  std::int64_t java_id = 0;  // java.lang.Thread.getId()
  std::int32_t os_tid = 0;   // Linux thread id, 0 = unknown (docs/recorder.md: discovery)
  bool daemon = false;
  std::string name;           // latest name seen
  std::string thread_class;   // class of the Thread object, dotted (e.g. "java.lang.Thread")
  std::int64_t start_ns = 0;  // first seen, ns since the profile start
  std::int64_t end_ns = -1;   // ThreadEnd, ns since the profile start; -1 = not seen ending

  friend bool operator==(const ThreadEntry&, const ThreadEntry&) = default;
};

struct SampleRecord {
  std::uint32_t thread = 0;         // ThreadEntry::index
  NodeId node = kRootNode;          // leaf of the stack; file id when encoding, tree id when decoded
  std::uint32_t state = 0;          // JVMTI thread state bits
  std::uint32_t owner = kNoThread;  // owner of the monitor a BLOCKED thread waits to enter, or of
                                    // the lock (AbstractOwnableSynchronizer) a PARKED one waits for
  std::int32_t priority = 0;        // Java priority
  std::int32_t nice = 0;            // OS nice value (decides preemption on Linux; Java priority does not)
  // /proc/self/task/TID/schedstat deltas since this thread's previous record: a RUNNABLE
  // interval of elapsed_ns splits into run_ns on a CPU, wait_ns in the run queue, and the rest
  // not running (e.g. blocked in a syscall while JVMTI says RUNNABLE|IN_NATIVE).
  bool has_cpu = false;  // false: no OS tid, or the first record of the thread
  std::uint64_t elapsed_ns = 0;
  std::uint64_t run_ns = 0;
  std::uint64_t wait_ns = 0;

  friend bool operator==(const SampleRecord&, const SampleRecord&) = default;
};

struct SampleTick {
  std::int64_t time_ns = 0;  // since the profile start
  std::uint32_t first_record = 0;
  std::uint32_t record_count = 0;

  friend bool operator==(const SampleTick&, const SampleTick&) = default;
};

struct SampleData {
  std::vector<ThreadEntry> threads;  // threads[i].index == i
  std::vector<SampleTick> ticks;     // in time order
  std::vector<SampleRecord> records;
};

}  // namespace bn::calltree
