#pragma once
// Stacks of threads running Java code, taken by the threads themselves: the sampler sends the
// thread a SIGPROF and the thread walks its own stack in the handler with HotSpot's
// AsyncGetCallTrace (async-profiler's method). Why not GetStackTrace: for a thread running
// Java code that is a handshake, and the sampler spins until the thread reaches a safepoint
// poll; on a busy machine the thread the woken sampler has just preempted cannot reach one
// until the sampler gives the CPU back (47% of the sampler's CPU at 20 ms with two workers on
// two CPUs, docs/performance.md). A signal costs the sampler one syscall, and it then sleeps
// while the threads answer. The stacks also lose the safepoint bias: a thread is caught at
// the instruction it was running, not at its next poll.
//
// Protocol (one asking thread, any number of answering ones). Each request uses a slot whose
// atomic word holds a generation number and a phase: ASKED, WRITING, ANSWERED or FREE. The
// signal carries the slot index and the generation (rt_tgsigqueueinfo's value). The handler
// claims the slot by moving it from (generation, ASKED) to WRITING, so a signal that arrives
// after its request was given up, or a stray SIGPROF, touches nothing. The asker gives up on a
// request by moving it from ASKED to FREE; if the handler got there first, the asker waits for
// ANSWERED (the handler is a bounded walk). The handler counts down `unanswered` before it
// publishes ANSWERED and, if the asker sleeps on it (a futex), wakes it when the count reaches
// zero, so once every slot of a round is answered or given up no handler of that round touches
// the count again.
// The handler takes no lock and allocates nothing; slots are never freed, so a late signal
// never reaches freed memory.

#include <jni.h>

#include <cstdint>

#include "bn/agent/status.h"

namespace bn::agent {

// HotSpot's AsyncGetCallTrace interface (hotspot/share/prims/forte.cpp; no JDK header has it).
struct AsyncFrame {
  jint bci;          // or a negative marker for native frames
  jmethodID method;  // null when the method has no jmethodID yet
};
struct AsyncTrace {
  JNIEnv* env;      // the walking thread's own JNIEnv
  jint num_frames;  // frames filled, or a negative error code
  AsyncFrame* frames;
};
using AsyncWalk = void (*)(AsyncTrace* trace, jint depth, void* ucontext);

// AsyncGetCallTrace from the loaded libjvm, or null if this JVM has none.
AsyncWalk find_async_get_call_trace();

class SignalStacks {
 public:
  // num_frames of an answer that has no stack, besides AsyncGetCallTrace's own codes (< 0).
  static constexpr jint kUnanswered = -100;   // no answer in time: the request was given up
  static constexpr jint kWrongThread = -101;  // the tid now names another thread
  static constexpr jint kNotJava = -102;      // the signalled thread is not a Java thread

  struct Answer {
    jint num_frames;  // >= 0: frames[0] is the innermost
    const AsyncFrame* frames;
    std::int64_t handler_ns;  // wall time the thread spent in the handler
    // Frames that all name a method: an error code, or a frame whose method has no jmethodID
    // yet (AsyncGetCallTrace creates none), makes the answer unusable.
    bool usable;
  };

  // Installs the SIGPROF handler for this process (once; later calls must pass the same
  // arguments). `walk` is AsyncGetCallTrace, or a stand-in in tests; `vm` gives the handler the
  // thread's JNIEnv (null: the walk gets none). `max_frames`: frames a walk may return.
  // Fails saying why signals cannot be used (SIGPROF taken by the program or another agent).
  Status enable(JavaVM* vm, AsyncWalk walk, jint max_frames);
  bool enabled() const { return enabled_; }

  // Asks thread `tid` of this process for its stack; returns the request's number (0, 1, ...
  // within a round) or -1 if no signal went out (the thread is gone, or all slots are in use).
  int ask(std::int32_t tid);
  // Waits until every request of the round is answered or `timeout_ns` has passed; requests
  // still unanswered are given up. Afterwards answer() may be read for each request.
  void await_answers(std::int64_t timeout_ns);
  Answer answer(int request) const;
  // Starts a new round: the slots are reused.
  void new_round() { asked_ = 0; }
  // Whether a request of this round was answered unusably (so the asker should walk that
  // thread another way now, while its stack is still close to the one asked for).
  bool has_unusable_answer() const;

  // The alarm: a counter that a handler rings (bumps and wakes) when its answer is unusable,
  // and that ring() rings too. sleep_until_alarm() sleeps until the counter differs from
  // `seen` (read with alarms() before deciding to sleep) or `timeout_ns` passes.
  static std::int32_t alarms();
  static void sleep_until_alarm(std::int32_t seen, std::int64_t timeout_ns);
  static void ring();

 private:
  bool enabled_ = false;
  int asked_ = 0;  // requests in this round; they use slots 0 .. asked_-1
};

}  // namespace bn::agent
