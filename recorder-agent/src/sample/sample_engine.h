#pragma once
// mode=sample: the SAMPLER of seed 000 sec. 5.1. An agent thread wakes at jittered intervals
// and, for every live Java thread, takes its stack with GetStackTrace, a per-thread handshake
// (GetAllStackTraces would stop the world every tick: 4.4% of wall time at 20 ms on JDK 17),
// its JVMTI state, Java priority and OS nice value, the owner of the monitor or lock it waits for,
// and its schedstat CPU and run-queue time, which split JVMTI's RUNNABLE into running, waiting
// for a CPU and not running; and the CPU of every other thread of the process (the JIT
// compilers, the GC, itself: native_threads.h). A thread running Java code walks its own stack
// when signalled (signal_stacks.h); the tick collects those answers after asking every other
// thread.

#include <jvmti.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "bn/agent/options.h"
#include "bn/calltree/metadata.h"
#include "bn/calltree/sample_records.h"
#include "core/engine.h"
#include "core/frame_tree.h"
#include "core/profile_sink.h"
#include "sample/lock_owners.h"
#include "sample/method_ids.h"
#include "sample/native_threads.h"
#include "sample/pacer.h"
#include "sample/signal_stacks.h"
#include "sample/stack_stats.h"
#include "sample/thread_registry.h"

namespace bn::agent {

class SampleEngine final : public Engine {
 public:
  explicit SampleEngine(const EngineSetup& setup);

  Needs needs() const override;
  void granted(const jvmtiCapabilities& possessed) override;
  Status start(JNIEnv* jni) override;
  void stop() override;
  bool recording() const override;
  void thread_started(JNIEnv* jni, jthread thread) override;
  void thread_ended(JNIEnv* jni, jthread thread) override;
  void class_prepared(JNIEnv* jni, jthread thread, jclass klass) override;

 private:
  struct PendingStack;  // below, with the other state of an open tick
  static void JNICALL run(jvmtiEnv* jvmti, JNIEnv* jni, void* self);
  void loop(JNIEnv* jni);
  // Waits `ns`, finishing the open tick early if a signalled thread answered unusably; false
  // if stop() was called.
  bool wait_ns(JNIEnv* jni, std::int64_t ns);
  void set_running(bool running);
  // A tick: one sample of every thread. start_tick() takes them, asking the threads running
  // Java code for their stacks by signal; returns false when the VM is shutting down. The
  // tick stays open while the sampler sleeps, which is when a thread it preempted can answer;
  // finish_tick() collects the answers and appends the tick to ticks_ and records_, which
  // flushes write. A thread waiting for a CPU executes nothing until it gets one, and then runs
  // the handler first, so its answer is its stack as of the tick, however late it comes.
  bool start_tick(JNIEnv* jni, bool first, std::int64_t& held_ns);
  void finish_tick(JNIEnv* jni, std::int64_t& held_ns);
  // Appends the thread's record to open_records_; its stack is reused, taken now, or asked for
  // by signal (then pending_ holds it until collect_signalled_stacks()).
  void sample_thread(JNIEnv* jni, jthread thread, std::size_t position, const TaskNames* names, std::int64_t now_ns,
                     std::int64_t& held_ns);
  // A stack taken with GetStackTrace; kNoNode if the thread is gone or the JVM refused (counted).
  // `cpu_ns`: the thread's CPU clock just before (-1 unknown), to charge a running thread the
  // CPU it used meanwhile.
  calltree::NodeId walk_by_handshake(JNIEnv* jni, jthread thread, ThreadRecord* record, std::int32_t tid, bool running,
                                     std::int64_t cpu_ns, std::int64_t& held_ns);
  // Completes the records of the threads asked by signal in the open tick, waiting for their
  // answers as long as the thread needs to get a CPU (up to kAnswerWaitNs); a thread whose
  // answer is unusable is asked again (up to kRetries times), and only then walked by
  // handshake, as is one that never answered.
  void collect_signalled_stacks(JNIEnv* jni, std::int64_t& held_ns);
  // Asks the threads `again` (unusable answers) once more, each once it has run a little;
  // those asked go back into pending_.
  void ask_again_once_moved(JNIEnv* jni, std::vector<PendingStack>& again, std::int64_t& held_ns);
  // The stack of a pending request from its answer, or by handshake (counted by `reason`).
  void complete_by_handshake(JNIEnv* jni, const PendingStack& p, StackStats::Reason reason, std::int64_t& held_ns);
  // Completes a record whose stack is known: counts it, remembers the stack for reuse.
  void complete(calltree::SampleRecord& r, ThreadRecord* record, calltree::NodeId node, jint state,
                std::int64_t cpu_ns);
  // The tree node of a stack (frames[0] innermost), following the tree from the frames it
  // shares with `path`, the thread's previous stack, which it then replaces; kNoNode (counted
  // as dropped) if the JVM has no memory for the local references that naming methods takes.
  template <class Frame, class MethodOf>
  calltree::NodeId stack_node(JNIEnv* jni, const Frame* frames, jint count, StackPath& path, MethodOf method_of);
  void flush();
  // The exit summary on stderr, with warnings when the ticks came late or were stretched.
  void report_summary(const calltree::Metadata& m) const;
  // Mean time between the first and the last tick (0 with fewer than two).
  std::int64_t achieved_interval_ns() const;
  calltree::Metadata metadata(bool final) const;

  JavaVM* vm_;
  jvmtiEnv* jvmti_;
  Options options_;
  bool attached_;
  int cpus_;
  std::int64_t start_ns_;  // CLOCK_MONOTONIC at start; record times are relative to it
  std::int64_t start_unix_ns_;
  std::int64_t end_ns_ = 0;
  std::string jvm_;
  std::string command_line_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // running_ changed
  std::atomic<bool> stop_requested_{false};
  bool running_ = false;  // guarded by mutex_: the sampler thread started, not finished

  ThreadRegistry registry_;
  SinkPart sink_;
  // The recording's tree (ProfileSink), touched only under sink_.lock_tree(), which a tick holds
  // from start_tick() and from finish_tick() to their ends: another engine of the recording may
  // add to it between ticks.
  FrameTree& tree_;
  std::size_t samples_metric_;  // the tree's metric of samples: this engine's first
  LockOwners lock_owners_;
  // The CPU of the threads that are not Java threads it samples, itself included.
  NativeThreads native_;
  std::int32_t sampler_tid_ = 0;
  Pacer pacer_;
  SignalStacks signals_;
  std::string stack_method_;  // "signal" or "handshake" (and why), for the metadata
  // A record (index into open_records_) waiting for its thread to answer a signal.
  struct PendingStack {
    std::size_t record;
    ThreadRecord* thread_record;
    jthread thread;  // a local reference in the open tick's frame
    jint state;
    std::int64_t cpu_ns;
    std::int32_t tid;
    int request;
  };
  std::vector<PendingStack> pending_;
  std::vector<jvmtiFrameInfo> frames_;
  std::vector<calltree::SampleTick> ticks_;
  std::vector<calltree::SampleRecord> records_;  // of finished ticks, until the next flush
  struct OpenTick {
    bool open = false;  // not derivable from `threads`: GetAllThreads may give none
    calltree::SampleTick tick{};
    jthread* threads = nullptr;  // GetAllThreads' array, deallocated when the tick finishes
  };
  OpenTick open_;
  std::vector<calltree::SampleRecord> open_records_;
  std::int64_t last_flush_ns_ = 0;
  std::int64_t last_snapshot_ns_ = 0;
  std::int64_t cpu_ns_ = 0;             // the sampler thread's CPU time while sampling, waits included
  std::int64_t first_tick_cpu_ns_ = 0;  // of which the first tick (one-time: naming threads)
  std::int64_t held_ns_ = 0;            // wall time running threads were held for their stacks
  std::int64_t early_held_ns_ = 0;      // of a tick finished early, for the next tick's account
  std::uint64_t tick_count_ = 0;
  std::int64_t first_tick_ns_ = 0;  // CLOCK_MONOTONIC of the first and the last tick
  std::int64_t last_tick_ns_ = 0;
  std::uint64_t sample_count_ = 0;
  std::uint64_t dropped_ = 0;        // a stack the JVM refused, or out of memory
  std::uint64_t threads_gone_ = 0;   // THREAD_NOT_ALIVE mid-tick: skipped, counted
  std::uint64_t stacks_reused_ = 0;  // samples of idle threads that reused their last stack
  StackStats stack_stats_;           // how running threads' stacks were taken
  MethodIds method_ids_;
  bool non_safepoint_info_ = false;  // granted CompiledMethodLoad events (DebugNonSafepoints)
};

}  // namespace bn::agent
