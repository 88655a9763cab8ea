// SampleEngine, one thread's sample: state, stack (reused, taken by handshake, or asked for by
// signal and collected when the tick finishes), monitor owner, CPU split. The tick itself is in
// sample_engine.cpp.

#include <new>
#include <utility>

#include "core/jni_values.h"
#include "core/local_frame.h"
#include "core/os_thread.h"
#include "sample/sample_engine.h"

namespace bn::agent {
namespace {

// How often (in ticks) a thread's name, Java priority and nice value are re-read.
constexpr std::uint64_t kInfoRefreshTicks = 16;
// How long a signalled thread's answer is waited for (it may be queued for a CPU), and how
// often a thread whose answer was unusable is asked again, before it is walked by handshake.
constexpr std::int64_t kAnswerWaitNs = 50'000'000;
constexpr int kRetries = 2;
// A thread is asked again once it has used this much more CPU, polled this often.
constexpr std::int64_t kRetryAfterCpuNs = 20'000;
constexpr std::int64_t kRetryPollNs = 20'000;
// PendingStack::request of a retried thread whose new request is made (or replaced).
constexpr int kRequestMade = -2;

bool is_running_java(jint state) {
  return (state & JVMTI_THREAD_STATE_RUNNABLE) != 0 && (state & JVMTI_THREAD_STATE_IN_NATIVE) == 0;
}

// Whether a thread running Java code is worth a signal rather than a handshake (kReasons if
// so, else why not). JVMTI also calls RUNNABLE a thread blocked inside the VM (the Signal
// Dispatcher waiting for a signal, the Notification Thread): a signal would wake it only for
// AsyncGetCallTrace to find no walkable frame (ticks_unknown_not_Java), and the handler's own
// CPU would make it look as if it ran, so that it would be signalled again at every tick and
// its stack never reused; the handshake walks such a thread without waking it. A thread that
// used at least a sixteenth of the interval's CPU since its previous sample is taken to be
// running; one that used less is asked the kernel (is it on a CPU or in a run queue?), since
// on a loaded machine a busy thread often gets little CPU between two ticks, and sending it
// to the handshake biased 6% of a busy thread's stacks at 1 ms. A thread first seen, or with
// no known tid, takes the handshake.
StackStats::Reason signal_refused(std::int32_t tid, std::int64_t cpu_ns, std::int64_t last_cpu_ns,
                                  std::int64_t interval_ns) {
  if (cpu_ns < 0 || last_cpu_ns < 0) return StackStats::kFirstSample;
  if (cpu_ns - last_cpu_ns < interval_ns / 16 && !is_runnable_now(tid)) return StackStats::kLittleCpu;
  return StackStats::kReasons;
}

}  // namespace

void SampleEngine::sample_thread(JNIEnv* jni, jthread thread, std::size_t position, const TaskNames* names,
                                 std::int64_t now_ns, std::int64_t& held_ns) {
  jint state = 0;
  if (jvmti_->GetThreadState(thread, &state) != JVMTI_ERROR_NONE || (state & JVMTI_THREAD_STATE_ALIVE) == 0) {
    ++threads_gone_;
    return;
  }
  ThreadRecord* record = registry_.find_or_add(jni, thread, names, position);
  if (record == nullptr) {
    ++threads_gone_;
    return;
  }
  if (record->is_sampler) return;
  // Name and priority rarely change: re-read them every kInfoRefreshTicks ticks, not every tick
  // (GetThreadInfo allocates the name and two local references).
  const char* name = nullptr;
  jvmtiThreadInfo info{};
  if (!record->has_info || tick_count_ % kInfoRefreshTicks == 0) {
    if (jvmti_->GetThreadInfo(thread, &info) != JVMTI_ERROR_NONE) {
      ++threads_gone_;
      return;
    }
    record->has_info = true;
    record->priority = info.priority;
    name = info.name;
  }
  const std::int32_t tid = registry_.reference(record, name);
  release_thread_info(jvmti_, jni, info);

  // Stack reuse. A thread's Java stack changes only when the thread itself executes, and any
  // execution advances its kernel CPU clock (nanosecond sched_clock, which includes the current
  // slice when read). So if the clock reads the same as just before the previous walk, the
  // thread has not run since that read, and the stack the walk returned (taken after the read)
  // is still its stack now: it is recorded again as a fresh sample without a walk. The clock is
  // read BEFORE the walk (or the signal): read after it, a thread that ran between the walk and
  // the read would look unchanged. This holds for every JVMTI state (a RUNNABLE thread in native
  // code blocked in accept() has not run either), but the state must be unchanged too: bits
  // such as INTERRUPTED or SUSPENDED are set by other threads. A thread whose OS tid is unknown
  // has no clock to compare and is always walked. Sound as long as the tid is this thread's
  // (thread_registry.h: a tid is never guessed from an ambiguous name).
  const std::int64_t cpu_ns = tid != 0 ? thread_cpu_ns(tid) : -1;
  const bool reuse = cpu_ns >= 0 && record->has_stack && record->stack_state == state && record->stack_cpu_ns == cpu_ns;
  const std::int64_t last_cpu_ns = std::exchange(record->last_cpu_ns, cpu_ns);
  calltree::SampleRecord r;
  r.thread = record->entry.index;
  r.state = static_cast<std::uint32_t>(state);
  r.priority = record->priority;
  int request = -1;
  if (reuse) {
    r.node = record->stack_node;
    ++stacks_reused_;
  } else {
    record->has_stack = false;
    // A thread running Java code is asked to walk its own stack (signal_stacks.h); one that is
    // blocked, waiting or in native code is walked by the handshake at once, which for such a
    // thread the sampler runs itself without stopping anybody.
    const bool running = is_running_java(state);
    if (running) {
      StackStats::Reason refused =
          signals_.enabled() ? signal_refused(tid, cpu_ns, last_cpu_ns, options_.interval_ns) : StackStats::kSignalsOff;
      if (refused == StackStats::kReasons && (request = signals_.ask(tid)) < 0) refused = StackStats::kNoSignal;
      if (refused != StackStats::kReasons) stack_stats_.by_handshake(refused);
    }
    if (request < 0) {
      r.node = walk_by_handshake(jni, thread, record, tid, running, cpu_ns, held_ns);
      if (r.node == calltree::kNoNode) return;
    }
  }
  // The owner of what the thread waits for (lock_owners.h): a monitor's is looked up once per
  // monitor when every thread of the tick has been sampled, a synchronizer's at once.
  if ((state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) != 0)
    lock_owners_.note_blocked(jni, thread, *record, reuse, open_records_.size());
  else if ((state & JVMTI_THREAD_STATE_PARKED) != 0)
    r.owner = lock_owners_.parked_owner(jni, thread, *record, reuse);
  // The CPU split and the nice value matter for RUNNABLE threads (seed 000 sec. 5.2: only
  // runnable threads compete for the CPU); a skipped read only makes the next delta span longer.
  // Both are read only if the thread's CPU clock moved (cpu_split.h); the nice value, which
  // another thread may change, also every kInfoRefreshTicks ticks, like the Java priority.
  if (tid != 0 && (state & JVMTI_THREAD_STATE_RUNNABLE) != 0) {
    const bool ran = record->split.worth_reading(cpu_ns);
    if (ran || !record->has_nice || tick_count_ % kInfoRefreshTicks == 0) {
      record->nice = nice_of(tid);
      record->has_nice = true;
    }
    r.nice = record->nice;
    SchedStat s;
    if (!ran) {
      record->split.on_unchanged(now_ns, r);
    } else if (record->schedstat.read(tid, s)) {
      record->split.on_reading(now_ns, cpu_ns, s, r);
    }
  }
  open_records_.push_back(r);
  if (request >= 0) {
    open_records_.back().node = calltree::kNoNode;
    pending_.push_back({open_records_.size() - 1, record, thread, state, cpu_ns, tid, request});
  } else {
    complete(open_records_.back(), record, r.node, state, reuse ? -1 : cpu_ns);
  }
}

calltree::NodeId SampleEngine::walk_by_handshake(JNIEnv* jni, jthread thread, ThreadRecord* record, std::int32_t tid,
                                                 bool running, std::int64_t cpu_ns, std::int64_t& held_ns) {
  // Only a thread running Java code is stopped by the handshake; one that is blocked, waiting
  // or in native code loses nothing while its stack is walked. A running thread is charged
  // the CPU time it used during the call (its own stack walk at its next safepoint poll, plus
  // the few instructions before the poll): wall time would also count the time it waited for
  // a CPU on a loaded machine, which is not the agent's doing. Without an OS tid, wall time.
  const std::int64_t wall_before = monotonic_ns();
  jint depth = 0;
  const jvmtiError err = jvmti_->GetStackTrace(thread, 0, static_cast<jint>(frames_.size()), frames_.data(), &depth);
  if (running) {
    const std::int64_t cpu_after = cpu_ns >= 0 ? thread_cpu_ns(tid) : -1;
    held_ns += cpu_after >= cpu_ns && cpu_ns >= 0 ? cpu_after - cpu_ns : monotonic_ns() - wall_before;
  }
  if (err == JVMTI_ERROR_THREAD_NOT_ALIVE) {
    ++threads_gone_;
    return calltree::kNoNode;
  }
  if (err != JVMTI_ERROR_NONE) {
    ++dropped_;
    return calltree::kNoNode;
  }
  return stack_node(jni, frames_.data(), depth, record->path, [](const jvmtiFrameInfo& f) { return f.method; });
}

void SampleEngine::complete_by_handshake(JNIEnv* jni, const PendingStack& p, StackStats::Reason reason,
                                         std::int64_t& held_ns) {
  stack_stats_.by_handshake(reason);
  // Held time counts from now: the clock read at the tick may be an interval old.
  const calltree::NodeId node =
      walk_by_handshake(jni, p.thread, p.thread_record, p.tid, true, thread_cpu_ns(p.tid), held_ns);
  if (node != calltree::kNoNode) complete(open_records_[p.record], p.thread_record, node, p.state, p.cpu_ns);
}

void SampleEngine::ask_again_once_moved(JNIEnv* jni, std::vector<PendingStack>& again, std::int64_t& held_ns) {
  // Each thread is asked again only once it has used kRetryAfterCpuNs more CPU: asked at once,
  // a thread that has not run since its answer (the sampler's wake-up may have taken its CPU)
  // is caught at the same instruction and fails the same way.
  std::vector<std::int64_t> since(again.size());
  for (std::size_t k = 0; k < again.size(); ++k) since[k] = thread_cpu_ns(again[k].tid);
  const std::int64_t deadline = monotonic_ns() + kAnswerWaitNs;
  std::size_t left = again.size();
  while (left > 0) {
    const bool late = monotonic_ns() >= deadline;
    for (std::size_t k = 0; k < again.size(); ++k) {
      PendingStack& p = again[k];
      if (p.request == kRequestMade) continue;
      const std::int64_t now = thread_cpu_ns(p.tid);
      if (!late && now >= 0 && since[k] >= 0 && now - since[k] < kRetryAfterCpuNs) continue;
      --left;
      stack_stats_.retried();
      if ((p.request = signals_.ask(p.tid)) >= 0)
        pending_.push_back(p);
      else
        complete_by_handshake(jni, p, StackStats::kNoSignal, held_ns);
      p.request = kRequestMade;
    }
    if (left > 0) SignalStacks::sleep_until_alarm(SignalStacks::alarms(), kRetryPollNs);
  }
}

void SampleEngine::collect_signalled_stacks(JNIEnv* jni, std::int64_t& held_ns) {
  // A thread that has not answered yet is queued for a CPU (or, rarely, has signals blocked in
  // native code); the handshake would wait for it just the same, and then catch it at a
  // safepoint poll, so the answer is waited for instead, as long as is reasonable.
  signals_.await_answers(kAnswerWaitNs);
  // An unusable answer mostly means the thread was caught at an instant AsyncGetCallTrace
  // cannot walk (a stub, a method's prologue, a transition into the VM). A handshake would
  // catch it at its next safepoint poll, biased; asking again catches it microseconds later
  // at an instant that does not depend on where polls are, which is nearly always walkable.
  for (int attempt = 0; !pending_.empty(); ++attempt) {
    std::vector<PendingStack> again;
    for (const PendingStack& p : pending_) {
      const SignalStacks::Answer a = signals_.answer(p.request);
      held_ns += a.handler_ns;
      try {
        if (a.usable) {
          const calltree::NodeId node = stack_node(jni, a.frames, a.num_frames, p.thread_record->path,
                                                   [](const AsyncFrame& f) { return f.method; });
          stack_stats_.by_signal();
          if (node != calltree::kNoNode) complete(open_records_[p.record], p.thread_record, node, p.state, p.cpu_ns);
        } else if (const StackStats::Reason why = StackStats::reason_of(a);
                   attempt < kRetries && StackStats::worth_retrying(why)) {
          again.push_back(p);
        } else {
          complete_by_handshake(jni, p, why, held_ns);
        }
      } catch (const std::bad_alloc&) {
        ++dropped_;
      }
    }
    signals_.new_round();
    pending_.clear();
    ask_again_once_moved(jni, again, held_ns);
    if (!pending_.empty()) signals_.await_answers(kAnswerWaitNs);
  }
}

void SampleEngine::complete(calltree::SampleRecord& r, ThreadRecord* record, calltree::NodeId node, jint state,
                            std::int64_t cpu_ns) {
  r.node = node;
  tree_.add_cost(node, samples_metric_, 1);
  ++sample_count_;
  if (cpu_ns >= 0) {  // a fresh stack: remember it for reuse
    record->has_stack = true;
    record->stack_node = node;
    record->stack_state = state;
    record->stack_cpu_ns = cpu_ns;
  }
}

template <class Frame, class MethodOf>
calltree::NodeId SampleEngine::stack_node(JNIEnv* jni, const Frame* frames, jint count, StackPath& path,
                                          MethodOf method_of) {
  const LocalFrame frame(jni);  // naming a new method makes local references
  if (!frame) {
    ++dropped_;
    return calltree::kNoNode;
  }
  calltree::NodeId root = calltree::kRootNode;
  if (count == 0) return tree_.child(root, tree_.intern(FrameTree::kNoJavaFrames));
  // frames[0] is the innermost frame; one frame beyond max_depth was asked for to detect a cut.
  if (static_cast<std::uint32_t>(count) > options_.max_depth) {
    root = tree_.child(root, tree_.intern(FrameTree::kTruncated));
    count = static_cast<jint>(options_.max_depth);
  }
  const auto n = static_cast<std::size_t>(count);
  return follow_stack(
      path, root, n, [&](std::size_t i) { return method_of(frames[n - 1 - i]); },
      [&](calltree::NodeId parent, jmethodID id) {
        calltree::MethodId m = tree_.method(jvmti_, id);
        if (m == calltree::kNoMethod) m = tree_.intern("[unknown method]");
        return tree_.child(parent, m);
      });
}

}  // namespace bn::agent
