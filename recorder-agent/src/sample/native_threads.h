#pragma once
// The CPU of the process's threads that are not Java threads the sampler samples: HotSpot's JIT
// compilers, GC, VM thread and periodic task thread, the sampler itself, any other (their pseudo
// thread classes: jvm_threads.h). Without them a profile misses what the program costs: on two
// CPUs the C1 and C2 compiler threads of an XSLT run took 38% of the process's CPU, so comparing
// a run with -XX:TieredStopAtLevel=1 against the default showed more CPU where the process used
// less.
//
// At every tick the sampler lists /proc/self/task (one getdents on a directory kept open) and,
// for each such thread, reads its schedstat (kept open, as for Java threads: SchedStatFile). A
// thread that ran or queued since its previous record gets a record at the tick: its class's
// pseudo-frame under the root, state RUNNABLE in native code (it runs no Java code; the views
// then count it as competing for a CPU only when it was on one or queued for half its interval,
// docs/views.md), and the growth of its counters since that record. Records add nothing to the
// tree's sample counts (the recorded tree is of Java stacks): these threads appear in the views
// that read the records, as their CPU and run-queue time. A thread that did neither gets no
// record: most of them idle most of the time, and the measured model (docs/views.md) takes a
// record's span back to the thread's previous one, so nothing is lost. Each thread also gets a
// record when first seen: at the first tick with no time (its CPU before the recording is not
// the recording's), later with its counters since its birth (a thread born during the
// recording), so the CPU of a compiler thread started and stopped between two ticks is still
// counted once it is seen.
//
// A task not yet claimed by a Java thread (its ThreadStart has not run) is not taken for a
// native thread at once: it must be unclaimed at two scans in a row, and a native thread that a
// Java thread claims later is ended. Tasks of Java threads that ended a moment ago, and those
// named like a Java thread whose OS id is unknown (thread_registry.h), are left to the Java
// side, whose records carry their time: counting them here too would count it twice.
//
// Only the sampler thread calls this, inside a tick; no allocation per thread per tick once the
// threads are known.

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/calltree/sample_data.h"
#include "core/frame_tree.h"
#include "core/os_thread.h"
#include "sample/jvm_threads.h"
#include "sample/thread_registry.h"

namespace bn::agent {

class NativeThreads {
 public:
  NativeThreads(ThreadRegistry& registry, FrameTree& tree, std::int64_t start_ns);
  ~NativeThreads();
  NativeThreads(const NativeThreads&) = delete;
  NativeThreads& operator=(const NativeThreads&) = delete;

  // One tick at `now_ns` (CLOCK_MONOTONIC; the tick's time), after the Java threads of the tick
  // were sampled (the first tick matches their OS ids then): appends the records of the native
  // threads that ran to `out`. `sampler_tid`: the agent's sampler, a Java thread that is never
  // sampled, whose CPU is recorded here. Call under the tree's lock.
  void sample(std::int64_t now_ns, bool first, std::uint64_t tick, std::int32_t sampler_tid,
              std::vector<calltree::SampleRecord>& out);
  // Entries new or changed since the last call (appended to `out`); ended threads are then
  // forgotten.
  void take_changed(std::vector<calltree::ThreadEntry>& out);
  // The recording has ended: every file closed.
  void release();

  std::uint64_t threads_seen() const { return threads_seen_; }

 private:
  enum class State : unsigned char { kCandidate, kNative, kLeftToJava, kEnded };
  struct Native {
    std::int32_t tid = 0;
    State state = State::kCandidate;
    bool seen = false;   // listed in this tick's scan
    bool dirty = false;  // entry changed since last written
    bool has_nice = false;
    std::string_view thread_class = kOtherJvmThreadClass;  // static storage (jvm_threads.h)
    std::int32_t nice = 0;
    std::int64_t time_ns = 0;  // of its previous record (candidate: the tick before it was seen)
    SchedStat last;            // counters at its previous record
    calltree::ThreadEntry entry;
    SchedStatFile schedstat;
  };

  bool open();        // the first tick: false if this kernel has no /proc/self/task or schedstat
  bool list_tasks();  // this tick's tids into tids_, sorted; false if /proc cannot be read
  // A thread seen at the first tick, or unclaimed at a second scan: named, classified, given
  // its entry and its first record. False if it is gone, or left to the Java side.
  bool adopt(Native& n, std::int64_t now_ns, bool first, std::uint64_t tick, std::int32_t sampler_tid,
             std::vector<calltree::SampleRecord>& out);
  // Reads its counters and appends its record if they grew (or `always`). False if it is gone.
  bool read(Native& n, std::int64_t now_ns, std::uint64_t tick, bool always, std::vector<calltree::SampleRecord>& out);
  void end(Native& n, std::int64_t now_ns);
  calltree::NodeId node_of(std::string_view thread_class);

  ThreadRegistry& registry_;
  FrameTree& tree_;
  std::int64_t start_ns_;
  bool opened_ = false;
  int dir_ = -1;  // /proc/self/task; -1: not opened, or the kernel lacks what this needs
  std::vector<char> buffer_;
  std::vector<std::int32_t> tids_;                                    // this tick's, sorted
  std::vector<std::int32_t> java_tids_;                               // sorted
  std::vector<std::unique_ptr<Native>> threads_;                      // by tid
  std::vector<std::int32_t> new_tids_;                                // listed, not tracked, not Java threads'
  std::vector<calltree::ThreadEntry> ended_;                          // entries to write once more, then forget
  std::vector<std::pair<std::string_view, calltree::NodeId>> nodes_;  // each class's frame, once made
  std::int64_t previous_tick_ns_ = 0;
  std::uint64_t threads_seen_ = 0;
};

}  // namespace bn::agent
