#include "sample_engine.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>

#include "os_thread.h"

namespace bn::agent {
namespace {

// How often (in ticks) a thread's name and Java priority are re-read.
constexpr std::uint64_t kInfoRefreshTicks = 16;

std::string system_property(jvmtiEnv* jvmti, const char* name) {
  char* value = nullptr;
  if (jvmti->GetSystemProperty(name, &value) != JVMTI_ERROR_NONE || value == nullptr) return {};
  std::string out(value);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(value));
  return out;
}

std::string fixed3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}
std::string percent(double fraction) { return fixed3(fraction * 100); }

}  // namespace

SampleEngine::SampleEngine(jvmtiEnv* jvmti, Options options, bool monitor_owners)
    : jvmti_(jvmti),
      options_(std::move(options)),
      monitor_owners_(monitor_owners),
      cpus_(std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)))),
      start_ns_(monotonic_ns()),
      start_unix_ns_(realtime_ns()),
      registry_(jvmti, start_ns_),
      pacer_(options_.interval_ns, options_.max_overhead,
             static_cast<std::uint64_t>(start_unix_ns_) ^ static_cast<std::uint64_t>(getpid())) {
}

calltree::Metadata SampleEngine::metadata(bool final) const {
  calltree::Metadata m;
  m.mode = "sample";
  m.metric = "samples";
  m.unit = "samples";
  m.jvm = jvm_;
  m.command_line = command_line_;
  m.start_time_unix_ns = start_unix_ns_;
  m.sample_interval_ns = options_.interval_ns;
  if (options_.max_overhead > 0) m.set_extra("max_overhead_percent", percent(options_.max_overhead));
  if (!final) return m;
  const std::int64_t elapsed = std::max<std::int64_t>(end_ns_, 1);
  m.duration_ns = end_ns_;
  m.set_extra("overhead_percent", percent(static_cast<double>(pacer_.total_cost_ns()) / static_cast<double>(elapsed)));
  m.set_extra("agent_cpu_ns", std::to_string(cpu_ns_));
  m.set_extra("first_tick_cpu_ns", std::to_string(first_tick_cpu_ns_));
  m.set_extra("threads_held_ns", std::to_string(held_ns_));
  m.set_extra("ticks", std::to_string(tick_count_));
  m.set_extra("samples", std::to_string(sample_count_));
  m.set_extra("dropped_samples", std::to_string(dropped_));
  m.set_extra("threads_gone", std::to_string(threads_gone_));
  m.set_extra("reused_stacks", std::to_string(stacks_reused_));
  m.set_extra("stretched_ticks", std::to_string(pacer_.stretched_ticks()));
  m.set_extra("mean_interval_ns", std::to_string(pacer_.mean_interval_ns()));
  return m;
}

void SampleEngine::report(const std::string& message) const {
  std::fprintf(stderr, "bottlenecks agent: %s\n", message.c_str());
}

std::string SampleEngine::start(JNIEnv* jni, bool attached) {
  try {
    jvm_ = system_property(jvmti_, "java.vm.name") + " " + system_property(jvmti_, "java.vm.version");
    command_line_ = process_command_line();
    frames_.resize(options_.max_depth + 1);
    if (std::string error = sink_.open(options_.file, metadata(false)); !error.empty()) return error;
    if (!attached) {  // VMInit runs on the main thread, which never sends ThreadStart
      jthread self = nullptr;
      if (jvmti_->GetCurrentThread(&self) == JVMTI_ERROR_NONE) {
        registry_.on_thread_start(jni, self, monotonic_ns());
        jni->DeleteLocalRef(self);
      }
    }
    jclass thread_class = jni->FindClass("java/lang/Thread");
    jmethodID init = thread_class != nullptr ? jni->GetMethodID(thread_class, "<init>", "(Ljava/lang/String;)V") : nullptr;
    jstring name = jni->NewStringUTF("bottlenecks-sampler");
    jobject thread = init != nullptr && name != nullptr ? jni->NewObject(thread_class, init, name) : nullptr;
    if (jni->ExceptionCheck()) jni->ExceptionClear();
    if (thread == nullptr) return "cannot create the sampler thread object";
    set_running(true);
    if (jvmti_->RunAgentThread(thread, run, this, JVMTI_THREAD_MAX_PRIORITY) != JVMTI_ERROR_NONE) {
      set_running(false);
      return "cannot start the sampler thread";
    }
    return {};
  } catch (const std::exception& e) {
    return std::string("cannot start: ") + e.what();
  }
}

void SampleEngine::stop() {
  std::unique_lock<std::mutex> lock(mutex_);
  stop_requested_ = true;
  changed_.notify_all();
  changed_.wait(lock, [this] { return !running_; });
}

void SampleEngine::set_running(bool running) {
  const std::lock_guard<std::mutex> lock(mutex_);
  running_ = running;
  changed_.notify_all();
}

void SampleEngine::thread_started(JNIEnv* jni, jthread thread) {
  try {
    registry_.on_thread_start(jni, thread, monotonic_ns());
  } catch (const std::bad_alloc&) {
    // The thread stays unknown until the sampler sees it; its OS tid stays unknown.
  }
}

void SampleEngine::thread_ended(JNIEnv*, jthread) { registry_.on_thread_end(monotonic_ns()); }

void JNICALL SampleEngine::run(jvmtiEnv*, JNIEnv* jni, void* self) {
  static_cast<SampleEngine*>(self)->loop(jni);
}

bool SampleEngine::wait_ns(std::int64_t ns) {
  // A plain condition variable on CLOCK_MONOTONIC (steady_clock), not a JVMTI raw monitor:
  // RawMonitorWait adds thread-state transitions and bookkeeping around the same futex wait
  // (perf: about a third of the wait's CPU at 10 ms) and rounds the timeout up to whole
  // milliseconds. The sampler waits in native code, where it never holds up a safepoint.
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, std::chrono::nanoseconds(ns), [this] { return stop_requested_; });
  return !stop_requested_;
}

void SampleEngine::loop(JNIEnv* jni) {
  try {
    jthread self = nullptr;
    if (jvmti_->GetCurrentThread(&self) == JVMTI_ERROR_NONE) registry_.mark_sampler(jni, self);
    last_flush_ns_ = last_snapshot_ns_ = monotonic_ns();
    bool first = true;
    if (wait_ns(options_.delay_ns)) {
      const std::int64_t sampling_start = monotonic_ns();
      // A tick is charged the sampler's CPU time since the previous tick ended, so the wait
      // before it (a timed sleep and its wake-up: a context switch) counts too.
      std::int64_t cpu_before = thread_cpu_ns();
      while (true) {
        std::int64_t held_ns = 0;
        if (!tick(jni, first, held_ns)) break;
        const std::int64_t now = monotonic_ns();
        if (now - last_flush_ns_ >= options_.flush_ns) flush();
        if (options_.snapshot_ns > 0 && now - last_snapshot_ns_ >= options_.snapshot_ns) {
          last_snapshot_ns_ = now;
          end_ns_ = now - start_ns_;
          if (std::string e = write_snapshot(options_.file + ".snapshot", tree_, metadata(true)); !e.empty()) report(e);
        }
        const std::int64_t cpu_after = thread_cpu_ns();
        const std::int64_t cpu = cpu_after - cpu_before;
        cpu_before = cpu_after;
        if (first) first_tick_cpu_ns_ = cpu;
        first = false;
        cpu_ns_ += cpu;
        held_ns_ += held_ns;
        pacer_.record_tick(cpu + held_ns);
        if (options_.duration_ns > 0 && now - sampling_start >= options_.duration_ns) break;
        if (!wait_ns(pacer_.next_wait_ns())) break;
      }
    }
    flush();
    end_ns_ = monotonic_ns() - start_ns_;
    const calltree::Metadata m = metadata(true);
    if (std::string e = sink_.finish(m); !e.empty()) report(e);
    if (!options_.quiet) {
      report("wrote " + options_.file + ": " + std::to_string(sample_count_) + " samples in " +
             std::to_string(tick_count_) + " ticks over " + fixed3(static_cast<double>(end_ns_) / 1e9) +
             " s; overhead " + std::string(*m.find_extra("overhead_percent")) + "% of one CPU; dropped " +
             std::to_string(dropped_) + " samples; " + std::to_string(threads_gone_) +
             " threads ended mid-tick");
    }
  } catch (const std::exception& e) {
    report(std::string("sampler stopped: ") + e.what());
  }
  set_running(false);
}

void SampleEngine::flush() {
  last_flush_ns_ = monotonic_ns();
  if (std::string e = sink_.flush(tree_, registry_.take_changed(), ticks_, records_); !e.empty()) {
    report(e);
    ticks_.clear();
    records_.clear();
  }
}

bool SampleEngine::tick(JNIEnv* jni, bool first, std::int64_t& held_ns) {
  const std::int64_t now = monotonic_ns();
  if (jni->PushLocalFrame(16) != 0) {
    jni->ExceptionClear();
    return true;
  }
  jint count = 0;
  jthread* threads = nullptr;
  const jvmtiError err = jvmti_->GetAllThreads(&count, &threads);
  if (err != JVMTI_ERROR_NONE) {
    jni->PopLocalFrame(nullptr);
    return err != JVMTI_ERROR_WRONG_PHASE;
  }
  ++tick_count_;
  // Threads first seen in the first tick existed before the agent's ThreadStart events (or
  // before an attach): they get their OS tid by name (thread_registry.h).
  const TaskNames names = first ? task_names() : TaskNames();
  calltree::SampleTick t{now - start_ns_, static_cast<std::uint32_t>(records_.size()), 0};
  for (jint i = 0; i < count; ++i) {
    if (jni->PushLocalFrame(16) != 0) {
      jni->ExceptionClear();
      ++dropped_;
      continue;
    }
    try {
      sample_thread(jni, threads[i], first ? &names : nullptr, now, held_ns);
    } catch (const std::bad_alloc&) {
      ++dropped_;
    }
    jni->PopLocalFrame(nullptr);
  }
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(threads));
  jni->PopLocalFrame(nullptr);
  t.record_count = static_cast<std::uint32_t>(records_.size()) - t.first_record;
  ticks_.push_back(t);
  return true;
}

void SampleEngine::sample_thread(JNIEnv* jni, jthread thread, const TaskNames* names, std::int64_t now_ns,
                                 std::int64_t& held_ns) {
  jint state = 0;
  if (jvmti_->GetThreadState(thread, &state) != JVMTI_ERROR_NONE ||
      (state & JVMTI_THREAD_STATE_ALIVE) == 0) {
    ++threads_gone_;
    return;
  }
  ThreadRecord* record = registry_.find_or_add(jni, thread, names);
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
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));

  // Stack reuse. A thread's Java stack changes only when the thread itself executes, and any
  // execution advances its kernel CPU clock (nanosecond sched_clock, which includes the current
  // slice when read). So if the clock reads the same as just before the previous walk, the
  // thread has not run since that read, and the stack the walk returned (taken after the read)
  // is still its stack now: it is recorded again as a fresh sample without a handshake. The
  // clock is read BEFORE the walk: read after it, a thread that ran between the walk and the
  // read would look unchanged. This holds for every JVMTI state (a RUNNABLE thread in native
  // code blocked in accept() has not run either), but the state must be unchanged too: bits
  // such as INTERRUPTED or SUSPENDED are set by other threads. A thread whose OS tid is unknown
  // has no clock to compare and is always walked. Sound as long as the tid is this thread's
  // (thread_registry.h: a tid is never guessed from an ambiguous name).
  const std::int64_t cpu_ns = tid != 0 ? thread_cpu_ns(tid) : -1;
  calltree::NodeId node = calltree::kRootNode;
  if (cpu_ns >= 0 && record->has_stack && record->stack_state == state && record->stack_cpu_ns == cpu_ns) {
    node = record->stack_node;
    ++stacks_reused_;
  } else {
    record->has_stack = false;
    // Only a thread running Java code is stopped by the handshake; one that is blocked, waiting
    // or in native code loses nothing while its stack is walked. A running thread is charged
    // the CPU time it used during the call (its own stack walk at its next safepoint poll, plus
    // the few instructions before the poll): wall time would also count the time it waited for
    // a CPU on a loaded machine, which is not the agent's doing. Without an OS tid, wall time.
    const bool running = (state & JVMTI_THREAD_STATE_RUNNABLE) != 0 && (state & JVMTI_THREAD_STATE_IN_NATIVE) == 0;
    const std::int64_t wall_before = monotonic_ns();
    jint depth = 0;
    const jvmtiError err = jvmti_->GetStackTrace(thread, 0, static_cast<jint>(frames_.size()), frames_.data(), &depth);
    if (running) {
      const std::int64_t cpu_after = cpu_ns >= 0 ? thread_cpu_ns(tid) : -1;
      held_ns += cpu_after >= cpu_ns && cpu_ns >= 0 ? cpu_after - cpu_ns : monotonic_ns() - wall_before;
    }
    if (err == JVMTI_ERROR_THREAD_NOT_ALIVE) {
      ++threads_gone_;
      return;
    }
    if (err != JVMTI_ERROR_NONE) {
      ++dropped_;
      return;
    }
    node = stack_node(frames_.data(), depth);
    if (cpu_ns >= 0) {
      record->has_stack = true;
      record->stack_node = node;
      record->stack_state = state;
      record->stack_cpu_ns = cpu_ns;
    }
  }
  calltree::SampleRecord r;
  r.thread = record->entry.index;
  r.node = node;
  r.state = static_cast<std::uint32_t>(state);
  r.priority = record->priority;
  if ((state & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) != 0 && monitor_owners_)
    r.owner = monitor_owner(jni, thread, held_ns);
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
  records_.push_back(r);
  tree_.add_sample(r.node);
  ++sample_count_;
}

calltree::NodeId SampleEngine::stack_node(const jvmtiFrameInfo* frames, jint count) {
  calltree::NodeId node = calltree::kRootNode;
  if (count == 0) return tree_.child(node, tree_.intern(FrameTree::kNoJavaFrames));
  // frames[0] is the innermost frame; one frame beyond max_depth was asked for to detect a cut.
  if (static_cast<std::uint32_t>(count) > options_.max_depth) {
    node = tree_.child(node, tree_.intern(FrameTree::kTruncated));
    count = static_cast<jint>(options_.max_depth);
  }
  for (jint i = count - 1; i >= 0; --i) {
    calltree::MethodId m = tree_.method(jvmti_, frames[i].method);
    if (m == calltree::kNoMethod) m = tree_.intern("[unknown method]");
    node = tree_.child(node, m);
  }
  return node;
}

std::uint32_t SampleEngine::monitor_owner(JNIEnv* jni, jthread thread, std::int64_t& held_ns) {
  jobject monitor = nullptr;
  if (jvmti_->GetCurrentContendedMonitor(thread, &monitor) != JVMTI_ERROR_NONE || monitor == nullptr)
    return calltree::kNoThread;
  jvmtiMonitorUsage usage{};
  const std::int64_t before = monotonic_ns();
  const jvmtiError err = jvmti_->GetObjectMonitorUsage(monitor, &usage);
  // JDK 17 answers this at a safepoint, which holds every running thread: charge it per CPU.
  held_ns += (monotonic_ns() - before) * cpus_;
  if (err != JVMTI_ERROR_NONE) return calltree::kNoThread;
  std::uint32_t owner = calltree::kNoThread;
  if (usage.owner != nullptr) {
    if (ThreadRecord* o = registry_.find_or_add(jni, usage.owner, nullptr); o != nullptr && !o->is_sampler) {
      registry_.reference(o, nullptr);
      owner = o->entry.index;
    }
  }
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.waiters));
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(usage.notify_waiters));
  return owner;
}

}  // namespace bn::agent
