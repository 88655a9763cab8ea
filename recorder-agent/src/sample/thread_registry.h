#pragma once
// Every Java thread the recorder has seen, with its OS thread id. A record hangs off the
// thread's JVMTI thread-local storage and is also indexed by the thread's Java id (Thread.tid,
// never reused within a JVM): in a tick the sampler finds it by that id, one JNI field read
// of the Thread object GetThreadState has just touched, instead of GetThreadLocalStorage,
// which reaches each thread's JVMTI state through cold per-thread structures (perf: 18% of the
// sampler's CPU with 50 parked threads). The storage remains the authority for threads not in
// the index: new ones, and ended ones whose record was freed while HotSpot still lists them.
//
// OS tids: a ThreadStart callback runs on the new thread itself, so it reads gettid(). Threads
// that exist before the events are enabled (VMInit: main and the JDK's system threads; attach:
// every thread) never send ThreadStart. VMInit runs on the main thread, so main gets its tid
// there; the others are matched once, in the first tick, by name against /proc/self/task/*/comm
// (HotSpot names each OS thread after its Java thread, truncated to 15 bytes); a name that is
// ambiguous leaves the tid unknown (no CPU split for that thread). docs/recorder.md, "Threads".

#include <jvmti.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bn/calltree/sample_data.h"
#include "core/os_thread.h"
#include "sample/cpu_split.h"
#include "sample/stack_path.h"

namespace bn::agent {

// The fields every tick reads for every thread come first, with the entry's ids right after
// them, so that an idle thread's sample touches one cache line of its record (with hundreds of
// threads the records are cold at every tick).
struct ThreadRecord {
  bool dirty = true;        // entry changed since it was last written
  bool referenced = false;  // sampled or named as a monitor owner: worth writing
  bool ended = false;       // ThreadEnd seen; freed once written
  bool is_sampler = false;  // the agent's own thread: never sampled
  bool has_info = false;    // priority below was read (sampler only)
  bool has_nice = false;    // nice below was read (sampler only)
  // What a PARKED thread was last found parked on (lock_owners.h; sampler only).
  enum ParkedOn : std::uint8_t { kParkedOnUnknown, kNotOnSynchronizer, kOnSynchronizer };
  ParkedOn parked_on = kParkedOnUnknown;
  // The last stack walked for this thread, kept so that a thread which has not run since can
  // reuse it (SampleEngine::sample_thread explains why that is sound). Sampler only.
  bool has_stack = false;     // the fields below describe a successful walk
  std::int32_t priority = 0;  // Java priority, refreshed every few ticks (sampler only)
  std::int32_t nice = 0;      // OS nice value, re-read when the thread ran or every few ticks
  calltree::NodeId stack_node = 0;
  std::int32_t stack_state = 0;   // JVMTI state when it was walked
  std::int64_t stack_cpu_ns = 0;  // the thread's CPU clock, read before that walk
  std::int64_t last_cpu_ns = -1;  // its CPU clock at its previous sample; -1 none (sampler only)
  calltree::ThreadEntry entry;    // entry.index is kNoThread until first referenced
  CpuSplit split;                 // schedstat baseline (sampler only)
  SchedStatFile schedstat;
  StackPath path;                  // its last stack walked, to follow the next (sampler only)
  const void* registry = nullptr;  // the ThreadRegistry that made it (ThreadRegistry::own)
};

class ThreadRegistry {
 public:
  ThreadRegistry(jvmtiEnv* jvmti, std::int64_t start_ns);

  // ThreadStart / VMInit: `thread` is the calling thread.
  void on_thread_start(JNIEnv* jni, jthread thread, std::int64_t now_ns);
  // ThreadEnd: `thread` is the calling thread.
  void on_thread_end(std::int64_t now_ns);

  static constexpr std::size_t kNoPosition = static_cast<std::size_t>(-1);
  // Sampler: the record of a live thread, created on first sight; nullptr if the thread has
  // ended or the JVM refused (it is then skipped). `names` (may be null): the threads of the
  // process by name, to find the OS tid of a thread that existed before the agent's events.
  // `position`: the thread's index in this tick's GetAllThreads list, or kNoPosition. HotSpot
  // lists threads in the same order tick after tick, so the record found at that position
  // last time is tried first: one compare instead of a hash lookup, whose scattered nodes cost
  // a tenth of the sampler's CPU with 200 parked threads.
  ThreadRecord* find_or_add(JNIEnv* jni, jthread thread, const TaskNames* names, std::size_t position);
  // Marks `record` as appearing in the profile (it then gets the next dense file index) and
  // updates its name if the program renamed it. Returns the OS tid (0 = unknown).
  std::int32_t reference(ThreadRecord* record, const char* current_name);
  // The record of the thread with this Java id (Thread.getId()), if it has one and has not
  // ended.
  ThreadRecord* find_by_java_id(std::int64_t java_id);
  // Marks the sampler's own thread so it is skipped.
  void mark_sampler(JNIEnv* jni, jthread thread);

  // For the threads that are not Java threads (native_threads.h), which share the entries' index
  // space: the next dense index.
  std::uint32_t allocate_index();
  // The OS tids of Java threads, sorted: those known, and those of threads that ended in the
  // last second (a task outlives its ThreadEnd for a moment, and must not then be taken for a
  // native thread).
  void java_tids(std::vector<std::int32_t>& out);
  // Whether a live Java thread whose OS tid is unknown has this kernel name (any task so named
  // may be it).
  bool names_unresolved_java_thread(const std::string& comm);

  // Entries of referenced threads changed since the last call, in index order; frees records of
  // ended threads once their last state is handed out. Only the sampler thread calls it, between
  // ticks, so no record it holds during a tick is freed under it.
  std::vector<calltree::ThreadEntry> take_changed();

  // The recording has ended (sampler thread, after its last flush): every record is freed, its
  // schedstat file closed, and each live thread's storage cleared, so that nothing of this
  // recording stays in the JVM for the next (an engine is never freed: engine.h); ThreadStart
  // and ThreadEnd callbacks still in flight then leave the registry alone.
  void release(JNIEnv* jni);

 private:
  ThreadRecord* create_locked(JNIEnv* jni, jthread thread, std::int32_t tid);
  // The record this registry made for a thread whose storage holds `stored`; null if it holds
  // none, the ended marker, or a record of an earlier recording's registry: the storage belongs
  // to the agent's one JVMTI environment, which every recording in the JVM shares (agent.cpp).
  ThreadRecord* own(void* stored) const;
  void describe(JNIEnv* jni, jthread thread, calltree::ThreadEntry& e);

  jvmtiEnv* jvmti_;
  std::int64_t start_ns_;
  jfieldID tid_field_ = nullptr;
  std::mutex mutex_;
  std::deque<std::unique_ptr<ThreadRecord>> records_;           // by index; null once freed
  std::unordered_map<std::int64_t, ThreadRecord*> by_java_id_;  // records not yet freed
  // (Java id, record) by list position, as last seen; cleared whenever a record is freed.
  std::vector<std::pair<std::int64_t, ThreadRecord*>> by_position_;
  std::vector<std::int32_t> claimed_tids_;
  // Tids of freed records, with the CLOCK_MONOTONIC time they were freed (java_tids()).
  std::vector<std::pair<std::int32_t, std::int64_t>> ended_tids_;
  std::uint32_t next_index_ = 0;
  bool released_ = false;  // guarded by mutex_
};

}  // namespace bn::agent
