#include "sample/sample_engine.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <span>
#include <utility>

#include "core/agent_thread.h"
#include "core/os_thread.h"
#include "core/report.h"
#include "core/system_property.h"

namespace bn::agent {
namespace {

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
std::string percent(double fraction) { return fixed(fraction * 100, 3); }

// The CPUs the JVM's threads may run on (its affinity mask, e.g. under taskset), which the
// typed-time views take as P (docs/views.md); the online count if the mask cannot be read.
int usable_cpus(int online) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return online;
  return std::max(1, CPU_COUNT(&set));
}

}  // namespace

SampleEngine::SampleEngine(const EngineSetup& setup)
    : Engine(setup),
      vm_(setup.vm),
      jvmti_(setup.jvmti),
      options_(setup.options),
      attached_(setup.attached),
      cpus_(std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)))),
      start_ns_(monotonic_ns()),
      start_unix_ns_(realtime_ns()),
      registry_(setup.jvmti, start_ns_),
      sink_(setup.sink, setup.part),
      tree_(sink_.tree()),
      samples_metric_(sink_.metric(0)),
      lock_owners_(setup.jvmti, registry_, cpus_),
      native_(registry_, tree_, start_ns_),
      pacer_(options_.interval_ns, options_.max_overhead,
             static_cast<std::uint64_t>(start_unix_ns_) ^ static_cast<std::uint64_t>(getpid())) {}

calltree::Metadata SampleEngine::metadata(bool final) const {
  calltree::Metadata m;
  m.mode = "sample";
  m.metric = "samples";
  m.unit = "samples";
  m.jvm = jvm_;
  m.command_line = command_line_;
  m.start_time_unix_ns = start_unix_ns_;
  m.sample_interval_ns = options_.interval_ns;
  m.set_extra("cpus", std::to_string(usable_cpus(cpus_)));
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
  m.set_extra("native_threads", std::to_string(native_.threads_seen()));
  m.set_extra("stack_method", stack_method_);
  stack_stats_.describe(m);
  lock_owners_.describe(m);
  if (options_.signal_stacks) {
    m.set_extra("non_safepoint_debug_info", non_safepoint_info_ ? (attached_ ? "from attach" : "on") : "off");
    m.set_extra("method_ids_created", std::to_string(method_ids_.methods()));
    m.set_extra("method_ids_classes", std::to_string(method_ids_.classes()));
    m.set_extra("method_ids_skipped_classes", std::to_string(method_ids_.skipped_classes()));
    m.set_extra("method_ids_cpu_ns", std::to_string(method_ids_.cpu_ns()));
  }
  if (tick_count_ > 1) m.set_extra("achieved_interval_ns", std::to_string(achieved_interval_ns()));
  m.set_extra("stretched_ticks", std::to_string(pacer_.stretched_ticks()));
  m.set_extra("mean_interval_ns", std::to_string(pacer_.mean_interval_ns()));
  return m;
}

Engine::Needs SampleEngine::needs() const {
  Needs needs;
  // Both are needed only to name the owner of a contended monitor; without them the profile
  // still has every stack and state.
  jvmtiCapabilities owners = no_capabilities();
  owners.can_get_current_contended_monitor = 1;
  owners.can_get_monitor_info = 1;
  needs.optional.push_back(owners);
  needs.events = {JVMTI_EVENT_THREAD_START, JVMTI_EVENT_THREAD_END};
  if (options_.signal_stacks) {
    // Signalled walks need: ClassLoad enabled (AsyncGetCallTrace's precondition), a jmethodID
    // for every method that can be on a stack (ClassPrepare: method_ids.h), and debug
    // information at every instruction, not only at safepoints (CompiledMethodLoad: agent.cpp).
    // Without that last one a walk names the method and line of the next safepoint poll,
    // which is the safepoint bias signals are meant to avoid: a small method inlined into a
    // loop got none of its samples, the loop's method all of them.
    jvmtiCapabilities compiled = no_capabilities();
    compiled.can_generate_compiled_method_load_events = 1;
    needs.optional.push_back(compiled);
    needs.events.insert(needs.events.end(),
                        {JVMTI_EVENT_CLASS_LOAD, JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_COMPILED_METHOD_LOAD});
  }
  return needs;
}

void SampleEngine::granted(const jvmtiCapabilities& possessed) {
  non_safepoint_info_ = possessed.can_generate_compiled_method_load_events;
  if (options_.signal_stacks && !non_safepoint_info_)
    report(
        "cannot have the JIT compilers record where each instruction is (no CompiledMethodLoad events): "
        "stacks of compiled code name the next safepoint poll, not the instruction that ran");
  lock_owners_.set_monitors_available(possessed.can_get_current_contended_monitor && possessed.can_get_monitor_info);
  // JDK 17 grants can_get_current_contended_monitor only in the OnLoad phase.
  if (!lock_owners_.monitors_available())
    report(std::string("cannot name the owners of contended monitors") +
           (attached_ ? " when attached (load the agent with -agentpath for that)" : "") +
           "; recording stacks and states");
}

Status SampleEngine::start(JNIEnv* jni) {
  try {
    jvm_ = system_property(jvmti_, "java.vm.name") + " " + system_property(jvmti_, "java.vm.version");
    command_line_ = process_command_line();
    frames_.resize(options_.max_depth + 1);
    stack_method_ = "handshake";
    if (options_.signal_stacks) {
      // ClassPrepare has covered every class prepared since Agent_OnLoad (or the attach);
      // these are the ones before.
      method_ids_.all_loaded(jvmti_, jni);
      if (Status s = signals_.enable(vm_, find_async_get_call_trace(), static_cast<jint>(frames_.size())); s.ok())
        stack_method_ = "signal";
      else
        report(s.message() + "; taking every stack with a handshake (GetStackTrace), which costs more");
    }
    if (Status s = sink_.open(metadata(false)); !s.ok()) return s;
    if (!attached_) {  // VMInit runs on the main thread, which never sends ThreadStart
      jthread self = nullptr;
      if (jvmti_->GetCurrentThread(&self) == JVMTI_ERROR_NONE) {
        registry_.on_thread_start(jni, self, monotonic_ns());
        jni->DeleteLocalRef(self);
      }
    }
    set_running(true);
    if (Status s = start_agent_thread(jvmti_, jni, "bottlenecks-sampler", run, this); !s.ok()) {
      set_running(false);
      return s;
    }
    return Status();
  } catch (const std::exception& e) {
    return Status::error(std::string("cannot start: ") + e.what());
  }
}

void SampleEngine::stop() {
  stop_requested_.store(true);
  SignalStacks::ring();  // wakes the sampler's wait
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !running_; });
}

bool SampleEngine::recording() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return running_;
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

void SampleEngine::class_prepared(JNIEnv*, jthread, jclass klass) { method_ids_.class_prepared(jvmti_, klass); }

void JNICALL SampleEngine::run(jvmtiEnv*, JNIEnv* jni, void* self) { static_cast<SampleEngine*>(self)->loop(jni); }

bool SampleEngine::wait_ns(JNIEnv* jni, std::int64_t ns) {
  // A futex with a timeout on CLOCK_MONOTONIC, not a JVMTI raw monitor: RawMonitorWait adds
  // thread-state transitions and bookkeeping around the same wait (perf: about a third of the
  // wait's CPU at 10 ms) and rounds the timeout up to whole milliseconds. The sampler waits in
  // native code, where it never holds up a safepoint. The futex is SignalStacks' alarm, which
  // stop() rings, and so does a signalled thread whose answer is unusable: the open tick is
  // then finished at once, so the handshake that replaces the answer walks the thread
  // microseconds after it answered, not an interval later, when its stack may be another.
  const std::int64_t deadline = monotonic_ns() + ns;
  while (true) {
    const std::int32_t seen = SignalStacks::alarms();
    if (stop_requested_.load()) return false;
    if (open_.open && signals_.has_unusable_answer()) finish_tick(jni, early_held_ns_);
    const std::int64_t now = monotonic_ns();
    if (now >= deadline) return true;
    SignalStacks::sleep_until_alarm(seen, deadline - now);
  }
}

void SampleEngine::loop(JNIEnv* jni) {
  try {
    jthread self = nullptr;
    if (jvmti_->GetCurrentThread(&self) == JVMTI_ERROR_NONE) registry_.mark_sampler(jni, self);
    sampler_tid_ = current_tid();
    last_flush_ns_ = last_snapshot_ns_ = monotonic_ns();
    bool first = true;
    if (wait_ns(jni, options_.delay_ns)) {
      const std::int64_t sampling_start = monotonic_ns();
      // A tick is charged the sampler's CPU time since the previous tick ended, so the wait
      // before it (a timed sleep and its wake-up: a context switch) counts too.
      std::int64_t cpu_before = thread_cpu_ns();
      while (true) {
        std::int64_t held_ns = std::exchange(early_held_ns_, 0);
        // The threads signalled in the previous tick answered while the sampler slept (a
        // thread it had preempted could run only then), unless the tick was finished early.
        finish_tick(jni, held_ns);
        const std::int64_t now = monotonic_ns();
        if (now - last_flush_ns_ >= options_.flush_ns) flush();
        if (options_.snapshot_ns > 0 && now - last_snapshot_ns_ >= options_.snapshot_ns) {
          last_snapshot_ns_ = now;
          end_ns_ = now - start_ns_;
          if (Status s = sink_.snapshot(options_.file + ".snapshot", metadata(true)); !s.ok()) report(s.message());
        }
        const bool live = start_tick(jni, first, held_ns);
        const std::int64_t cpu_after = thread_cpu_ns();
        const std::int64_t cpu = cpu_after - cpu_before;
        cpu_before = cpu_after;
        if (first) first_tick_cpu_ns_ = cpu;
        first = false;
        cpu_ns_ += cpu;
        held_ns_ += held_ns;
        if (!live) break;
        pacer_.record_tick(cpu + held_ns, lock_owners_.take_one_time_ns());
        if (options_.duration_ns > 0 && now - sampling_start >= options_.duration_ns) break;
        if (!wait_ns(jni, pacer_.next_wait_ns())) break;
      }
      // The last tick's answers: the threads have had no sleep of the sampler's to run in yet.
      finish_tick(jni, held_ns_);
      cpu_ns_ += thread_cpu_ns() - cpu_before;
    }
    flush();
    end_ns_ = monotonic_ns() - start_ns_;
    const calltree::Metadata m = metadata(true);
    if (Status s = sink_.finish(m); !s.ok()) report(s.message());
    if (!options_.quiet) report_summary(m);
  } catch (const std::exception& e) {
    report(std::string("sampler stopped: ") + e.what());
  }
  // The engine outlives its recording (engine.h): nothing of it may stay busy in the JVM. Only
  // this thread used the records; the sink gave back the tree once the file was complete.
  turn_events_off();
  registry_.release(jni);
  native_.release();
  std::vector<calltree::SampleTick>().swap(ticks_);
  std::vector<calltree::SampleRecord>().swap(records_);
  std::vector<calltree::SampleRecord>().swap(open_records_);
  set_running(false);
}

std::int64_t SampleEngine::achieved_interval_ns() const {
  return tick_count_ > 1 ? (last_tick_ns_ - first_tick_ns_) / static_cast<std::int64_t>(tick_count_ - 1) : 0;
}

void SampleEngine::report_summary(const calltree::Metadata& m) const {
  std::string line = "wrote " + options_.file + ": " + std::to_string(sample_count_) + " samples in " +
                     std::to_string(tick_count_) + " ticks over " + fixed(static_cast<double>(end_ns_) / 1e9, 3) +
                     " s; overhead " + std::string(*m.find_extra("overhead_percent")) + "% of one CPU; dropped " +
                     std::to_string(dropped_) + " samples; " + std::to_string(threads_gone_) +
                     " threads ended mid-tick";
  // Stacks taken at a safepoint poll credit the poll's method and line, not the instruction
  // that ran (stack_stats.h): say how many of the running threads' stacks may carry that bias.
  if (stack_stats_.handshakes() + stack_stats_.signal_stacks() > 0)
    line += "; running threads' stacks " + fixed(stack_stats_.handshake_share() * 100, 1) +
            "% by handshake (safepoint-biased)";
  report(line);
  // Fewer ticks than asked for are time-stamped, so estimates stay unbiased, but a run that
  // silently got a fraction of its samples has wider error bars than its user expects.
  const std::int64_t achieved = achieved_interval_ns();
  const std::int64_t asked = pacer_.mean_interval_ns();
  if (tick_count_ > 10 && achieved > asked + asked / 4) {
    report("warning: one tick every " + fixed(static_cast<double>(achieved) / 1e6, 1) + " ms instead of " +
           fixed(static_cast<double>(asked) / 1e6, 1) + " ms (" +
           fixed(100.0 * static_cast<double>(asked) / static_cast<double>(achieved), 0) +
           "% of the ticks asked for): the sampler thread did not get a CPU when due (a loaded machine?)");
  }
  if (pacer_.mean_interval_ns() > options_.interval_ns)
    report("maxoverhead=" + std::string(*m.find_extra("max_overhead_percent")) + "% stretched the interval from " +
           fixed(static_cast<double>(options_.interval_ns) / 1e6, 1) + " ms to " +
           fixed(static_cast<double>(pacer_.mean_interval_ns()) / 1e6, 1) + " ms");
}

void SampleEngine::flush() {
  last_flush_ns_ = monotonic_ns();
  std::vector<calltree::ThreadEntry> threads = registry_.take_changed();
  native_.take_changed(threads);  // the same index space: merged in index order, as readers need
  std::sort(threads.begin(), threads.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  const Status s = sink_.flush([&](std::span<const calltree::NodeId> new_parents) {
    std::vector<AncillaryChunk> chunks;
    // Thread entries before the records that name them; the parents of the new nodes travel
    // with the records so the reader can map file node ids to the loaded tree's preorder ids.
    if (!threads.empty()) chunks.push_back({calltree::kTagThreads, calltree::encode_threads(threads)});
    if (!ticks_.empty() || !new_parents.empty())
      chunks.push_back({calltree::kTagSamples, calltree::encode_samples(new_parents, ticks_, records_)});
    return chunks;
  });
  if (!s.ok()) report(s.message());
  ticks_.clear();  // written, or lost with the chunk that failed
  records_.clear();
}

bool SampleEngine::start_tick(JNIEnv* jni, bool first, std::int64_t& held_ns) {
  const auto tree_lock = sink_.lock_tree();
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
  if (tick_count_ == 1) first_tick_ns_ = now;
  last_tick_ns_ = now;
  // The tick stays open, its local frame too (the threads' references, needed if an answer
  // has to be replaced by a handshake), until finish_tick().
  open_ = OpenTick{true, calltree::SampleTick{now - start_ns_, 0, 0}, threads};
  // Threads first seen in the first tick existed before the agent's ThreadStart events (or
  // before an attach): they get their OS tid by name (thread_registry.h).
  const TaskNames names = first ? task_names() : TaskNames();
  // No local frame per thread: a sample of an idle thread makes no local reference, and the
  // calls that do (naming methods, a monitor's owner) open their own.
  for (jint i = 0; i < count; ++i) {
    try {
      sample_thread(jni, threads[i], static_cast<std::size_t>(i), first ? &names : nullptr, now, held_ns);
    } catch (const std::bad_alloc&) {
      ++dropped_;
    }
  }
  try {
    lock_owners_.resolve(jni, open_records_, held_ns);
  } catch (const std::bad_alloc&) {
    // The blocked threads' records keep no owner this tick.
  }
  // After the Java threads: at the first tick they have just been matched with their OS ids.
  try {
    native_.sample(now, first, tick_count_, sampler_tid_, open_records_);
  } catch (const std::bad_alloc&) {
    // The native threads' time since their last records goes to their next ones.
  }
  return true;
}

void SampleEngine::finish_tick(JNIEnv* jni, std::int64_t& held_ns) {
  if (!open_.open) return;
  const auto tree_lock = sink_.lock_tree();
  collect_signalled_stacks(jni, held_ns);
  // Records whose stack never came (the thread ended, the JVM refused, out of memory; each
  // counted) go.
  std::erase_if(open_records_, [](const calltree::SampleRecord& r) { return r.node == calltree::kNoNode; });
  open_.tick.first_record = static_cast<std::uint32_t>(records_.size());
  open_.tick.record_count = static_cast<std::uint32_t>(open_records_.size());
  records_.insert(records_.end(), open_records_.begin(), open_records_.end());
  open_records_.clear();
  ticks_.push_back(open_.tick);
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(open_.threads));
  jni->PopLocalFrame(nullptr);
  open_ = OpenTick{};
}

}  // namespace bn::agent
