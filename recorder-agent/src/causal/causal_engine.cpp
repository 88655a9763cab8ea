#include "causal/causal_engine.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <exception>

#include "bn/calltree/causal_records.h"
#include "causal/target_match.h"
#include "core/agent_files.h"
#include "core/agent_thread.h"
#include "core/jni_values.h"
#include "core/os_thread.h"
#include "core/report.h"
#include "core/system_property.h"

namespace bn::agent {
namespace {

// The handler's way to the engine: one causal recording per JVM (an attach is refused).
std::atomic<CausalEngine*> g_engine{nullptr};

// "Thread name" of a Java thread, or empty.
std::string thread_name(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  jvmtiThreadInfo info{};
  if (jvmti->GetThreadInfo(thread, &info) != JVMTI_ERROR_NONE) return {};
  std::string name = info.name != nullptr ? info.name : "";
  release_thread_info(jvmti, jni, info);
  return name;
}

std::string seconds(std::int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", static_cast<double>(ns) / 1e9);
  return text;
}

}  // namespace

CausalEngine::CausalEngine(const EngineSetup& setup)
    : Engine(setup),
      vm_(setup.vm),
      jvmti_(setup.jvmti),
      options_(setup.options),
      attached_(setup.attached),
      sink_(setup.sink, setup.part),
      random_(static_cast<std::uint64_t>(monotonic_ns()) ^ static_cast<std::uint64_t>(getpid())) {
  configured_ = progress_.configure(options_.progress, options_.latency);
  if (configured_.ok() && (!options_.targets.empty() || !options_.targets_file.empty())) {
    targets_ = read_causal_targets(options_.targets, options_.targets_file);
    configured_ = targets_.status;
  }
  if (configured_.ok() && progress_.whole_run() && targets_.targets.empty())
    configured_ = Status::error(
        "progress=end needs target= or targets=: each run is one experiment, and a warm-up to find targets would "
        "take part of it");
  if (configured_.ok() && attached_)
    configured_ = Status::error(
        "mode=causal samples every thread from its start: load the agent with -agentpath (bottlenecks record -- "
        "java ...), not by attaching");
  // The runtime jar (progress points, UnsafeBinding) goes on the boot class path now, in
  // Agent_OnLoad, before the class data sharing archive is mapped (calltree/java_side.h says why).
  AgentFiles files;
  if (configured_.ok()) configured_ = find_agent_files("causal", files);
  if (configured_.ok() && jvmti_ != nullptr &&
      jvmti_->AddToBootstrapClassLoaderSearch(files.runtime_jar.c_str()) != JVMTI_ERROR_NONE)
    configured_ = Status::error("cannot put '" + files.runtime_jar + "' on the boot class path");
  progress_.set_transformer_jar(files.transformer_jar);
}

Engine::Needs CausalEngine::needs() const {
  Needs n;
  jvmtiCapabilities monitors = no_capabilities();
  monitors.can_generate_monitor_events = 1;
  jvmtiCapabilities binds = no_capabilities();
  binds.can_generate_native_method_bind_events = 1;
  jvmtiCapabilities retransform = no_capabilities();
  retransform.can_retransform_classes = 1;
  n.optional = {monitors, binds, retransform};
  n.events = {JVMTI_EVENT_THREAD_START,
              JVMTI_EVENT_THREAD_END,
              JVMTI_EVENT_CLASS_LOAD,
              JVMTI_EVENT_CLASS_PREPARE,
              JVMTI_EVENT_CLASS_FILE_LOAD_HOOK,
              JVMTI_EVENT_COMPILED_METHOD_LOAD,
              JVMTI_EVENT_MONITOR_CONTENDED_ENTER,
              JVMTI_EVENT_MONITOR_CONTENDED_ENTERED,
              JVMTI_EVENT_MONITOR_WAIT,
              JVMTI_EVENT_MONITOR_WAITED,
              JVMTI_EVENT_NATIVE_METHOD_BIND};
  return n;
}

void CausalEngine::granted(const jvmtiCapabilities& possessed) {
  monitor_events_ = possessed.can_generate_monitor_events != 0;
}

Status CausalEngine::start(JNIEnv* jni) {
  if (!configured_.ok()) return configured_;
  try {
    walk_ = find_async_get_call_trace();
    if (walk_ == nullptr) return Status::error("this JVM has no AsyncGetCallTrace, which mode=causal samples with");
    jvm_ = system_property(jvmti_, "java.vm.name") + " " + system_property(jvmti_, "java.vm.version");
    start_ns_ = monotonic_ns();
    start_unix_ns_ = realtime_ns();
    g_engine.store(this, std::memory_order_release);
    if (Status s = CausalThreads::install(on_sample); !s.ok()) return s;
    if (Status s = hooks_.wrap_park(jni); !s.ok())
      report(s.message() + "; threads woken in java.util.concurrent pay the delays that accrued while they waited");
    if (Status s = progress_.start(jvmti_, jni, ledger_.inserted_ns()); !s.ok()) return s;
    period_ns_.store(options_.causal_period_ns);
    header_.period_ns = options_.causal_period_ns;
    header_.points = progress_.points();
    if (targets_.targets.empty()) {
      warm_up_ = std::make_unique<WarmUp>();
    } else {
      publish_targets();
    }
    if (progress_.whole_run()) {
      whole_run_target_ = static_cast<int>(random_() % targets_.targets.size());
      whole_run_speedup_ = pick_speedup();
      begin(whole_run_target_, whole_run_speedup_);
    }
    if (Status s = sink_.open(metadata(false)); !s.ok()) return s;
    started_.store(true);
    // VMInit runs on the main thread, which never sends ThreadStart.
    if (CausalThreads::attach_current(period_ns_.load(), frames_per_thread(), ledger_) == nullptr)
      threads_without_clock_.fetch_add(1);
    else
      threads_sampled_.fetch_add(1);
    if (progress_.whole_run()) return Status();
    set_running(true);
    if (Status s = start_agent_thread(jvmti_, jni, "bottlenecks-causal", run, this); !s.ok()) {
      set_running(false);
      return s;
    }
    return Status();
  } catch (const std::exception& e) {
    return Status::error(std::string("cannot start: ") + e.what());
  }
}

void CausalEngine::publish_targets() {
  symbols_owner_ = std::make_unique<MethodSymbols>(targets_.symbols);
  symbols_.store(symbols_owner_.get(), std::memory_order_release);
  // ClassPrepare covers the classes prepared from now on; these are the ones before.
  symbols_owner_->all_loaded(jvmti_);
  header_.targets = targets_.targets;
  header_.aspects = targets_.aspects;
}

void CausalEngine::on_sample(CausalThread& thread, void* ucontext, std::int64_t periods) {
  if (CausalEngine* engine = g_engine.load(std::memory_order_acquire); engine != nullptr)
    engine->sample(thread, ucontext, periods);
}

// In the signal handler, on the sampled thread: no lock, no allocation.
void CausalEngine::sample(CausalThread& thread, void* ucontext, std::int64_t periods) {
  if (stopped_.load(std::memory_order_relaxed)) return;
  const std::int64_t started = monotonic_ns();
  const int target = active_target_.load(std::memory_order_acquire);
  const auto weight = static_cast<std::uint64_t>(periods);
  samples_.fetch_add(weight, std::memory_order_relaxed);
  // Every sample is walked, in experiments at 0% too, so that each experiment costs the program
  // the same and only the inserted pauses tell them apart.
  JNIEnv* env = nullptr;
  if (vm_->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_6) == JNI_OK && env != nullptr) {
    AsyncTrace trace{env, 0, thread.frames};
    walk_(&trace, thread.max_frames, ucontext);
    const jint n = trace.num_frames;
    if (n <= 0) {
      walk_failures_.fetch_add(1, std::memory_order_relaxed);
    } else if (target == kWarmingUp) {
      warm_up_->add(thread.frames, n);
    } else if (target >= 0) {
      const MethodSymbols* symbols = symbols_.load(std::memory_order_acquire);
      for (jint i = 0; i < n; ++i) thread.bits[n - 1 - i] = symbols->bits(thread.frames[i].method);
      if (satisfies_any({thread.bits, static_cast<std::size_t>(n)},
                        targets_.compiled[static_cast<std::size_t>(target)])) {
        ledger_.hit(thread.account, periods);
        target_samples_.fetch_add(weight, std::memory_order_relaxed);
      }
    }
  }
  const std::int64_t period = period_ns_.load(std::memory_order_relaxed);
  if (thread.period_ns != period) CausalThreads::set_period(thread, period);
  handler_ns_.fetch_add(monotonic_ns() - started, std::memory_order_relaxed);
  if (thread.account.busy == 0) ledger_.pay(thread.account, kMaxPauseNs);
}

void JNICALL CausalEngine::run(jvmtiEnv*, JNIEnv* jni, void* self) { static_cast<CausalEngine*>(self)->loop(jni); }

void CausalEngine::loop(JNIEnv* jni) {
  try {
    // The first experiment waits out the warm-up, picking the targets meanwhile if none was
    // given: while the JIT compiles, the rate of progress climbs tenfold, and experiments then
    // would compare one phase of the run with another.
    if (targets_.targets.empty() ? !find_default_targets() : !wait_ns(options_.warmup_ns)) {
      set_running(false);
      return;
    }
    std::int64_t length = options_.experiment_ns;
    std::int64_t last_flush = monotonic_ns();
    while (experiment(jni, length)) {
      if (monotonic_ns() - last_flush >= options_.flush_ns) {
        flush();
        last_flush = monotonic_ns();
      }
    }
  } catch (const std::exception& e) {
    report(std::string("causal experiments stopped: ") + e.what());
  }
  set_running(false);
}

bool CausalEngine::find_default_targets() {
  active_target_.store(kWarmingUp, std::memory_order_release);
  const bool warmed = wait_ns(options_.warmup_ns);
  active_target_.store(kNoTarget, std::memory_order_release);
  if (!warmed || !wait_ns(20'000'000)) return false;  // a handler still copying finishes
  const std::vector<std::string> hottest = warm_up_->hottest(jvmti_, kDefaultTargets);
  if (hottest.empty()) {
    report("causal: the warm-up (" + seconds(options_.warmup_ns) +
           ") sampled no Java method that could be a target; give target= or targets=");
    return false;
  }
  targets_ = method_targets(hottest);
  if (!targets_.status.ok()) {
    report("causal: " + targets_.status.message());
    return false;
  }
  publish_targets();
  if (!options_.quiet) {
    std::string list;
    for (const std::string& m : hottest) list += (list.empty() ? "" : ", ") + m;
    report("causal: the warm-up picked " + std::to_string(hottest.size()) + " targets: " + list);
  }
  return true;
}

std::uint32_t CausalEngine::pick_speedup() {
  if (!options_.speedups.empty()) return options_.speedups[random_() % options_.speedups.size()];
  // A quarter of the experiments at 0%: the baseline every other is compared with.
  if (random_() % 4 == 0) return 0;
  return static_cast<std::uint32_t>(5 * (1 + random_() % 20));
}

void CausalEngine::begin(int target, std::uint32_t speedup) {
  ledger_.begin(period_ns_.load() * speedup / 100);
  active_target_.store(target, std::memory_order_release);
}

bool CausalEngine::experiment(JNIEnv* jni, std::int64_t& length_ns) {
  const auto target = static_cast<std::uint32_t>(next_target_++ % targets_.targets.size());
  const std::uint32_t speedup = pick_speedup();
  ProgressPoints::Reading before;
  ProgressPoints::Reading after;
  if (!progress_.read(jni, before)) return false;
  const std::uint64_t samples_before = samples_.load();
  const std::uint64_t target_samples_before = target_samples_.load();
  const std::int64_t handler_before = handler_ns_.load();
  const std::int64_t period = period_ns_.load();
  const std::int64_t start = monotonic_ns();
  begin(static_cast<int>(target), speedup);
  const bool complete = wait_ns(length_ns);
  const std::int64_t hits = ledger_.hits();
  active_target_.store(kNoTarget, std::memory_order_release);
  ledger_.begin(0);  // debts of this experiment are forgiven (delay_ledger.h)
  const std::int64_t end = monotonic_ns();
  if (!complete || !progress_.read(jni, after)) return false;
  calltree::CausalExperiment e;
  e.target = target;
  e.speedup = speedup;
  e.start_ns = start - start_ns_;
  e.duration_ns = end - start;
  e.delay_ns = std::min(e.duration_ns, hits * (period * speedup / 100));
  e.samples = samples_.load() - samples_before;
  e.target_samples = target_samples_.load() - target_samples_before;
  bool rare = false;
  for (std::size_t i = 0; i < after.counts.size(); ++i) {
    e.progress.push_back(after.counts[i] - before.counts[i]);
    e.in_flight.push_back({after.latency[i].departures - before.latency[i].departures,
                           in_flight_between(before.latency[i], after.latency[i])});
    rare = rare || after.counts[i] - before.counts[i] < kMinProgress;
  }
  bound_overhead(handler_ns_.load() - handler_before, e.samples);
  keep(std::move(e));
  if (rare) length_ns = std::min(length_ns * 2, kMaxExperimentNs);
  return true;
}

void CausalEngine::bound_overhead(std::int64_t handler_ns, std::uint64_t periods) {
  const std::int64_t period = period_ns_.load();
  if (options_.max_overhead <= 0 || periods == 0 || period >= kMaxPeriodNs) return;
  const double cost = static_cast<double>(handler_ns) / (static_cast<double>(periods) * static_cast<double>(period));
  if (cost > options_.max_overhead) period_ns_.store(std::min(period * 2, kMaxPeriodNs));
}

void CausalEngine::keep(calltree::CausalExperiment e) {
  const std::lock_guard<std::mutex> lock(experiments_mutex_);
  unflushed_.push_back(std::move(e));
  ++experiments_;
}

void CausalEngine::flush() {
  std::vector<calltree::CausalExperiment> taken;
  {
    const std::lock_guard<std::mutex> lock(experiments_mutex_);
    taken.swap(unflushed_);
  }
  if (taken.empty()) return;
  const Status s = sink_.flush([&](std::span<const calltree::NodeId>) {
    return std::vector<AncillaryChunk>{{calltree::kTagCausal, calltree::encode_causal(header_, taken)}};
  });
  if (!s.ok()) report(s.message());
}

bool CausalEngine::wait_ns(std::int64_t ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (options_.duration_ns > 0)
    ns = std::min(ns, std::max<std::int64_t>(0, start_ns_ + options_.duration_ns - monotonic_ns()));
  changed_.wait_for(lock, std::chrono::nanoseconds(ns), [this] { return stop_requested_; });
  const bool over = options_.duration_ns > 0 && monotonic_ns() - start_ns_ >= options_.duration_ns;
  return !stop_requested_ && !over;
}

void CausalEngine::set_running(bool running) {
  const std::lock_guard<std::mutex> lock(mutex_);
  running_ = running;
  changed_.notify_all();
}

void CausalEngine::stop() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    stop_requested_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return !running_; });
    if (finished_ || !started_.load()) return;
    finished_ = true;
  }
  end_ns_ = monotonic_ns() - start_ns_;
  if (progress_.whole_run()) {
    calltree::CausalExperiment e;
    e.target = static_cast<std::uint32_t>(whole_run_target_);
    e.speedup = whole_run_speedup_;
    e.duration_ns = end_ns_;
    e.delay_ns = std::min(end_ns_, ledger_.hits() * (period_ns_.load() * whole_run_speedup_ / 100));
    e.samples = samples_.load();
    e.target_samples = target_samples_.load();
    e.progress = {1};
    e.in_flight = {calltree::InFlight{}};
    keep(std::move(e));
  }
  stopped_.store(true);
  active_target_.store(kNoTarget);
  CausalThreads::stop_all();
  hooks_.stop();
  flush();
  const calltree::Metadata m = metadata(true);
  if (Status s = sink_.finish(m); !s.ok()) report(s.message());
  if (!options_.quiet)
    report("causal: " + std::to_string(experiments_) + " experiments of " + std::to_string(targets_.targets.size()) +
           " targets over " + seconds(end_ns_) + "; pauses inserted " + seconds(ledger_.paid_ns()) + " (" +
           std::to_string(samples_.load()) + " samples of " + std::to_string(threads_sampled_.load()) + " threads)");
}

jint CausalEngine::frames_per_thread() const {
  return static_cast<jint>(std::min<std::uint32_t>(options_.max_depth, kMaxFrames));
}

bool CausalEngine::recording() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return started_.load() && !finished_;
}

void CausalEngine::thread_started(JNIEnv* jni, jthread thread) {
  if (!started_.load() || stopped_.load()) return;
  // The agent's own threads (the sampler's, the experiments') are no part of the program.
  if (thread_name(jvmti_, jni, thread).starts_with("bottlenecks-")) return;
  if (CausalThreads::attach_current(period_ns_.load(), frames_per_thread(), ledger_) == nullptr)
    threads_without_clock_.fetch_add(1);
  else
    threads_sampled_.fetch_add(1);
}

void CausalEngine::thread_ended(JNIEnv*, jthread) { CausalThreads::detach_current(); }

void CausalEngine::class_prepared(JNIEnv*, jthread, jclass klass) {
  if (MethodSymbols* symbols = symbols_.load(std::memory_order_acquire); symbols != nullptr)
    symbols->class_prepared(jvmti_, klass);
}

void CausalEngine::class_file_loaded(JNIEnv* jni, jclass, jobject, const char* name, jint length,
                                     const unsigned char* data, jint* new_length, unsigned char** new_data) {
  progress_.class_file_loaded(jvmti_, jni, name, length, data, new_length, new_data);
}

void CausalEngine::monitor_contended_enter(JNIEnv*, jthread) { hooks_.contended_enter(); }
void CausalEngine::monitor_contended_entered(JNIEnv*, jthread) { hooks_.contended_entered(); }
void CausalEngine::monitor_wait(JNIEnv*, jthread) { hooks_.wait(); }
void CausalEngine::monitor_waited(JNIEnv*, jthread, bool timed_out) { hooks_.waited(timed_out); }
void CausalEngine::native_method_bound(JNIEnv*, jmethodID method, void* address) {
  hooks_.native_bound(method, address);
}

calltree::Metadata CausalEngine::metadata(bool final) const {
  calltree::Metadata m;
  m.mode = "causal";
  m.metric = "samples";
  m.unit = "samples";
  m.jvm = jvm_;
  m.start_time_unix_ns = start_unix_ns_;
  m.set_extra("period_ns", std::to_string(options_.causal_period_ns));
  if (options_.max_overhead > 0) m.set_extra("max_overhead_percent", std::to_string(options_.max_overhead * 100));
  m.set_extra("experiment_ns", std::to_string(options_.experiment_ns));
  std::string points;
  for (const calltree::ProgressPoint& p : progress_.points()) points += (points.empty() ? "" : " ") + p.name;
  m.set_extra("progress", points);
  m.set_extra("monitor_events", monitor_events_ ? "on" : "off");
  if (!final) return m;
  m.duration_ns = end_ns_;
  m.set_extra("targets", std::to_string(targets_.targets.size()));
  m.set_extra("experiments", std::to_string(experiments_));
  m.set_extra("samples", std::to_string(samples_.load()));
  m.set_extra("target_samples", std::to_string(target_samples_.load()));
  m.set_extra("walk_failures", std::to_string(walk_failures_.load()));
  m.set_extra("pause_ns", std::to_string(ledger_.paid_ns()));
  m.set_extra("sampling_ns", std::to_string(handler_ns_.load()));
  m.set_extra("final_period_ns", std::to_string(period_ns_.load()));
  m.set_extra("threads_sampled", std::to_string(threads_sampled_.load()));
  m.set_extra("threads_without_clock", std::to_string(threads_without_clock_.load()));
  m.set_extra("threads_by_perf_event", std::to_string(CausalThreads::perf_threads()));
  m.set_extra("threads_by_timer", std::to_string(CausalThreads::timer_threads()));
  m.set_extra("parks_wrapped", std::to_string(hooks_.parks()));
  if (const MethodSymbols* s = symbols_.load(); s != nullptr) {
    m.set_extra("target_methods", std::to_string(s->stored()));
    m.set_extra("target_methods_overflow", std::to_string(s->overflow()));
  }
  return m;
}

}  // namespace bn::agent
