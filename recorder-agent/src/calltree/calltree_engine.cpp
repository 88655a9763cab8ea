#include "calltree/calltree_engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <span>
#include <utility>

#include "calltree/label_methods.h"
#include "core/agent_thread.h"
#include "core/os_thread.h"
#include "core/report.h"
#include "core/system_property.h"

namespace bn::agent {
namespace {

// The hook's guard against itself: the transformer runs Java code, which may load classes on
// the same thread (ASM's, the JDK's); those are never transformed.
thread_local bool t_in_hook = false;

// "Lpkg/Outer$Inner;" -> "pkg/Outer$Inner"; empty for arrays and primitives.
std::string internal_name(std::string_view signature) {
  if (signature.size() < 3 || signature.front() != 'L' || signature.back() != ';') return {};
  return std::string(signature.substr(1, signature.size() - 2));
}

// "pkg.Outer$Inner.method" -> "pkg/Outer$Inner".
std::string class_of_method(const std::string& method) {
  std::string cls = method.substr(0, method.rfind('.'));
  std::replace(cls.begin(), cls.end(), '.', '/');
  return cls;
}

// clock=tick's period. Its ticks are the samples that divide time among calling contexts
// (Clock.java); 1 ms is the shortest Thread.sleep, and the clock thread's wake-ups then cost
// about 2.5% of one CPU (bench/LOG.md, "The clock thread ends with the recording"), only
// while the recording runs.
constexpr std::int64_t kTickMillis = 1;

// A flush costs the flusher's CPU in proportion to the trees' size (every node's counts are read
// to find what changed). Once a flush costs more than 1/kFlushCostRatio of the interval, the next
// wait grows to kFlushCostRatio times that cost: javac compiling its own sources grows tens of
// millions of calling contexts, and flushing them every second took more CPU than the compiler's
// own thread (docs/performance.md, "A real source tree").
constexpr std::int64_t kFlushCostRatio = 20;

std::string seconds(std::int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e9);
  return buf;
}

// What the profile says of the methods left without probes (docs/recorder.md, "Trivial methods").
std::string trivial_rule(Options::Trivial trivial) {
  switch (trivial) {
    case Options::Trivial::kSkip:
      return "skip: methods of at most 16 instructions that call nothing, never loop and take no monitor have no "
             "probes; their time is their caller's";
    case Options::Trivial::kWrappers:
      return "wrappers: methods of at most 16 instructions that never loop, take no monitor, catch nothing and call "
             "only their package's methods, not recursively, have no probes; their time is their caller's, and what "
             "they call is recorded under their caller";
    case Options::Trivial::kCount:
      break;
  }
  return "count";
}

// The bound on the threads' trees the JVM's first call-tree recording sets (treememory=).
std::uint64_t tree_memory_bound(const Options& options) {
  return options.tree_memory > 0 ? options.tree_memory : default_tree_memory();
}

}  // namespace

CallTreeEngine::CallTreeEngine(const EngineSetup& setup)
    : Engine(setup),
      jvmti_(setup.jvmti),
      options_(setup.options),
      filter_(options_.include, options_.exclude),
      start_ns_(monotonic_ns()),
      start_unix_ns_(realtime_ns()),
      sink_(setup.sink, setup.part),
      drained_(sink_.metric(0)) {
  // Started with -agentpath (the OnLoad phase): the runtime jar goes on the boot class path now,
  // which spares the program the JVM's warning about class data sharing
  // (JavaSide::put_on_boot_class_path).
  if (!setup.attached) CallTreeRuntime::of_jvm(tree_memory_bound(options_)).prepare_at_load(jvmti_);
}

Engine::Needs CallTreeEngine::needs() const {
  Needs needs;
  // Every class's load reaches the hook; loaded classes can be retransformed (instrumented at
  // start, restored at the end of duration=).
  needs.required.can_generate_all_class_hook_events = 1;
  needs.required.can_retransform_classes = 1;
  needs.events = {JVMTI_EVENT_CLASS_FILE_LOAD_HOOK};
  return needs;
}

bool CallTreeEngine::wants(JNIEnv* jni, std::string_view name, jobject loader) const {
  if (!filter_.instruments(name) || runtime_->java().is_own_loader(jni, loader)) return false;
  if (!filter_.has_include() && runtime_->java().is_runtime_loader(jni, loader)) return false;
  return !methods_ || method_classes_.contains(std::string(name));
}

void CallTreeEngine::class_file_loaded(JNIEnv* jni, jclass, jobject loader, const char* name, jint length,
                                       const unsigned char* data, jint* new_length, unsigned char** new_data) {
  if (phase_.load(std::memory_order_acquire) != Phase::kInstrumenting || name == nullptr || t_in_hook) return;
  try {
    if (!wants(jni, name, loader)) return;
    t_in_hook = true;
    const std::int64_t cpu_before = thread_cpu_ns();
    const bool replaced = runtime_->java().transform(jvmti_, jni, name, length, data, new_length, new_data);
    transform_cpu_ns_.fetch_add(thread_cpu_ns() - cpu_before, std::memory_order_relaxed);
    t_in_hook = false;
    if (replaced) {
      const std::lock_guard<std::mutex> lock(instrumented_mutex_);
      instrumented_.insert(name);
    }
  } catch (const std::exception&) {
    t_in_hook = false;  // out of memory: the class stays as it is
  }
}

template <class Select>
std::uint64_t CallTreeEngine::retransform_loaded(JNIEnv* jni, Select select) {
  jint count = 0;
  jclass* classes = nullptr;
  if (jvmti_->GetLoadedClasses(&count, &classes) != JVMTI_ERROR_NONE) return 0;
  std::vector<jclass> chosen;
  for (jint i = 0; i < count; ++i) {
    char* signature = nullptr;
    jboolean modifiable = JNI_FALSE;
    if (jvmti_->GetClassSignature(classes[i], &signature, nullptr) == JVMTI_ERROR_NONE) {
      const std::string name = internal_name(signature);
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(signature));
      jobject loader = nullptr;
      const bool selected =
          !name.empty() && jvmti_->GetClassLoader(classes[i], &loader) == JVMTI_ERROR_NONE && select(jni, name, loader);
      if (loader != nullptr) jni->DeleteLocalRef(loader);
      if (selected && jvmti_->IsModifiableClass(classes[i], &modifiable) == JVMTI_ERROR_NONE &&
          modifiable == JNI_TRUE) {
        chosen.push_back(classes[i]);
        continue;
      }
    }
    jni->DeleteLocalRef(classes[i]);
  }
  jvmti_->Deallocate(reinterpret_cast<unsigned char*>(classes));
  std::uint64_t done = 0;
  // One call retransforms them all at one safepoint; if the JVM refuses one class (it names
  // none), the whole call fails, and each class is tried alone.
  if (!chosen.empty() &&
      jvmti_->RetransformClasses(static_cast<jint>(chosen.size()), chosen.data()) == JVMTI_ERROR_NONE) {
    done = chosen.size();
  } else {
    for (jclass c : chosen) done += jvmti_->RetransformClasses(1, &c) == JVMTI_ERROR_NONE ? 1 : 0;
  }
  for (jclass c : chosen) jni->DeleteLocalRef(c);
  return done;
}

Status CallTreeEngine::start(JNIEnv* jni) {
  Status s = start_recording(jni);
  // The program runs on without profiling, so without the clock thread either.
  if (!s.ok() && runtime_ != nullptr) runtime_->java().stop_clock(jni);
  return s;
}

Status CallTreeEngine::start_recording(JNIEnv* jni) {
  try {
    jvm_ = system_property(jvmti_, "java.vm.name") + " " + system_property(jvmti_, "java.vm.version");
    command_line_ = process_command_line();
    if (!options_.methods_file.empty()) {
      LabelMethods labels = read_label_methods(options_.methods_file);
      if (!labels.status.ok()) return labels.status;
      for (const std::string& m : labels.methods) method_classes_.insert(class_of_method(m));
      methods_ = std::move(labels.methods);
    }
    // The Java side (loaded by the JVM's first call-tree recording) configured for this one, and
    // the baseline: what the threads' trees hold already is not this recording's.
    runtime_ = &CallTreeRuntime::of_jvm(tree_memory_bound(options_));
    if (Status s = runtime_->start_recording(jvmti_, jni, options_, methods_ ? &*methods_ : nullptr, drained_); !s.ok())
      return s;
    counts_at_start_ = runtime_->java().counts(jni);
    if (Status s = sink_.open(metadata(false, jni)); !s.ok()) return s;
    if (!options_.exact_clock)
      if (Status s = runtime_->java().start_clock(jni, kTickMillis); !s.ok()) return s;
    phase_.store(Phase::kInstrumenting, std::memory_order_release);
    // Classes loaded before now (the JDK's, at VMInit; all of them when attached) get their
    // probes here; the hook takes every class loaded from now on.
    retransformed_at_start_ = retransform_loaded(
        jni, [this](JNIEnv* env, const std::string& name, jobject loader) { return wants(env, name, loader); });
    set_running(true);
    if (Status s = start_agent_thread(jvmti_, jni, "bottlenecks-calltree", run, this); !s.ok()) {
      set_running(false);
      return s;
    }
    return Status();
  } catch (const std::exception& e) {
    return Status::error(std::string("cannot start: ") + e.what());
  }
}

void CallTreeEngine::stop() {
  std::unique_lock<std::mutex> lock(mutex_);
  stop_requested_ = true;
  changed_.notify_all();
  changed_.wait(lock, [this] { return !running_; });
}

void CallTreeEngine::end_recording() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    restore_on_stop_ = true;
  }
  stop();
}

bool CallTreeEngine::recording() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

void CallTreeEngine::set_running(bool running) {
  const std::lock_guard<std::mutex> lock(mutex_);
  running_ = running;
  changed_.notify_all();
}

bool CallTreeEngine::restore_requested() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return restore_on_stop_;
}

bool CallTreeEngine::wait_ns(std::int64_t ns) {
  std::unique_lock<std::mutex> lock(mutex_);
  return !changed_.wait_for(lock, std::chrono::nanoseconds(ns), [this] { return stop_requested_; });
}

void JNICALL CallTreeEngine::run(jvmtiEnv*, JNIEnv* jni, void* self) { static_cast<CallTreeEngine*>(self)->loop(jni); }

void CallTreeEngine::loop(JNIEnv* jni) {
  try {
    const std::int64_t cpu_before = thread_cpu_ns();
    // Measured for every recording: maxoverhead= bounds the estimate, and the analyzer takes
    // the probes' estimated cost out of exclusive times (calltree/model's probe_cost.h).
    picos_per_call_ = runtime_->java().picos_per_call(jni);
    std::int64_t flush_cost_ns = 0;  // the last flush's CPU
    while (true) {
      std::int64_t wait = std::max(options_.flush_ns, kFlushCostRatio * flush_cost_ns);
      if (options_.duration_ns > 0) wait = std::min(wait, detailing_left_ns(jni));
      if (wait > 0 && !wait_ns(wait)) {
        if (restore_requested()) restore(jni, "stop");
        break;
      }
      if (options_.duration_ns > 0 && detailing_left_ns(jni) <= 0) {
        restore(jni, "duration");
        break;
      }
      const std::int64_t flush_start = thread_cpu_ns();
      flush(jni);
      flush_cost_ns = thread_cpu_ns() - flush_start;
      // DYPER's bound: detailing ends at the first flush where the probes' estimated cost is
      // above maxoverhead= of one CPU over the time since start.
      const double elapsed = static_cast<double>(monotonic_ns() - start_ns_);
      if (options_.max_overhead > 0 && static_cast<double>(estimated_cost_ns()) > options_.max_overhead * elapsed) {
        restore(jni, "maxoverhead");
        break;
      }
    }
    phase_.store(Phase::kDone, std::memory_order_release);
    // Measured again now that the JIT has caught up: at start its compilers are busy with the
    // program's classes and the calibration may run before they compile it (twice the cost
    // was seen on Xalan). The lower figure is the steady state's.
    if (const std::int64_t again = runtime_->java().picos_per_call(jni); again > 0)
      picos_per_call_ = picos_per_call_ > 0 ? std::min(picos_per_call_, again) : again;
    flush(jni);
    flush_cpu_ns_ = thread_cpu_ns() - cpu_before;
    end_ns_ = monotonic_ns() - start_ns_;
    if (Status s = sink_.finish(metadata(true, jni)); !s.ok()) report(s.message());
    if (!options_.quiet) report_summary();
  } catch (const std::exception& e) {
    report(std::string("call-tree recording stopped: ") + e.what());
  }
  // However the recording ended (duration=, maxoverhead=, a stop, the JVM's exit), the program
  // runs on without a thread that wakes every tick: Clock.java.
  runtime_->java().stop_clock(jni);
  // Nor a call into the agent for every class it loads (the classes were restored first).
  turn_events_off();
  // The engine outlives its recording (engine.h), and a later recording in this JVM keeps state of
  // its own; only this thread used what was drained per node (the sink gave back the tree once
  // the file was complete).
  drained_ = DrainedTrees(sink_.metric(0));
  std::vector<TreeView>().swap(trees_);
  set_running(false);
}

void CallTreeEngine::restore(JNIEnv* jni, std::string why) {
  // DYPER's detailing for a bounded time: the frames running instrumented code finish in it,
  // and what they record from now on is no recording's (a later one starts from a baseline:
  // DrainedTrees::start).
  phase_.store(Phase::kDone, std::memory_order_release);
  stopped_by_ = std::move(why);
  restored_ = retransform_loaded(jni, [this](JNIEnv*, const std::string& name, jobject) {
    const std::lock_guard<std::mutex> lock(instrumented_mutex_);
    return instrumented_.contains(name);
  });
  const std::lock_guard<std::mutex> lock(instrumented_mutex_);
  restored_all_ = restored_ == instrumented_.size();
}

std::int64_t CallTreeEngine::detailing_left_ns(JNIEnv* jni) const {
  // duration= counts from the program's first instrumented call, not from the agent's start: a
  // JVM's start-up (slow on a loaded machine) or a program that reaches the named methods late
  // must not eat the detailing's time. Before that call, the time left is all of it.
  const std::int64_t since = runtime_->java().nanos_since_first_call(jni);
  return since < 0 ? options_.duration_ns : options_.duration_ns - since;
}

std::int64_t CallTreeEngine::estimated_cost_ns() const {
  return static_cast<std::int64_t>(drained_.calls()) * picos_per_call_ / 1000;
}

void CallTreeEngine::flush(JNIEnv* jni) {
  ++flushes_;
  std::vector<std::string> names;
  Status s = runtime_->snapshot(jni, trees_, names);
  if (s.ok()) {
    const auto tree_lock = sink_.lock_tree();
    s = drained_.merge(trees_, names, sink_.tree(), runtime_->memory());
  }
  if (s.ok()) s = sink_.flush([](std::span<const calltree::NodeId>) { return std::vector<AncillaryChunk>(); });
  const std::array<std::int64_t, 4> counts = runtime_->java().counts(jni);
  for (std::size_t i = 0; i < counts.size(); ++i)
    counts_[i] = std::max<std::int64_t>(0, counts[i] - counts_at_start_[i]);
  if (!s.ok()) report(s.message());
}

calltree::Metadata CallTreeEngine::metadata(bool final, JNIEnv*) const {
  calltree::Metadata m;
  m.mode = "calltree";
  m.metric = "time";  // exclusive ("self") nanoseconds; inclusive is a node's cum
  m.unit = "ns";
  m.jvm = jvm_;
  m.command_line = command_line_;
  m.start_time_unix_ns = start_unix_ns_;
  m.set_extra("trivial", trivial_rule(options_.trivial));
  m.set_extra("clock", options_.exact_clock ? "exact: System.nanoTime() at every entry and exit"
                                            : "tick: every " + std::to_string(kTickMillis) +
                                                  " ms; exact calls, time divided among calling contexts by "
                                                  "the calling context current at each tick");
  m.set_extra("include", options_.include.empty() ? "the application's classes (not the boot or platform loader's)"
                                                  : options_.include);
  if (!options_.exclude.empty()) m.set_extra("exclude", options_.exclude);
  m.set_extra("never_instrumented",
              "bottlenecks.runtime.* bottlenecks.transform.* java.lang.* "
              "java.util.concurrent.atomic.* jdk.internal.* sun.misc.* sun.reflect.* sun.invoke.*");
  if (methods_) {
    m.set_extra("methods_file", options_.methods_file);
    m.set_extra("methods_named", std::to_string(methods_->size()));
  }
  if (options_.duration_ns > 0) m.set_extra("detailing_duration_ns", std::to_string(options_.duration_ns));
  m.set_extra("treememory", std::to_string(runtime_->memory().bound()));
  m.set_extra("transformer_jit", runtime_->transformer_jit());
  if (!final) return m;
  m.set_extra("treememory_peak", std::to_string(runtime_->memory().peak()));
  m.set_extra("tree_full_threads", std::to_string(drained_.full_threads()));
  m.set_extra("tree_full_calls", std::to_string(drained_.full_calls()));
  m.set_extra("tree_full_entries", std::to_string(drained_.full_entries()));
  m.duration_ns = end_ns_;
  m.set_extra("instrumented_classes", std::to_string(counts_[0]));
  m.set_extra("instrumented_methods", std::to_string(counts_[1]));
  m.set_extra("trivial_methods_skipped", std::to_string(counts_[2]));
  m.set_extra("refused_classes", std::to_string(counts_[3]));
  m.set_extra("transform_cpu_ns", std::to_string(transform_cpu_ns_.load(std::memory_order_relaxed)));
  m.set_extra("retransformed_at_start", std::to_string(retransformed_at_start_));
  m.set_extra("threads", std::to_string(drained_.threads_seen()));
  m.set_extra("calls", std::to_string(drained_.calls()));
  m.set_extra("flushes", std::to_string(flushes_));
  m.set_extra("agent_cpu_ns", std::to_string(flush_cpu_ns_));
  if (!stopped_by_.empty()) {
    m.set_extra("stopped_by", stopped_by_);
    m.set_extra("restored", restored_all_ ? "yes: every instrumented class has its original bytes again"
                                          : "partly: " + std::to_string(restored_) + " classes");
  }
  m.set_extra("picos_per_call", std::to_string(picos_per_call_));
  m.set_extra("estimated_cost_ns", std::to_string(estimated_cost_ns()));
  if (options_.max_overhead > 0) m.set_extra("max_overhead_percent", std::to_string(options_.max_overhead * 100));
  return m;
}

void CallTreeEngine::report_summary() const {
  report("wrote " + options_.file + ": " + std::to_string(drained_.calls()) + " calls on " +
         std::to_string(drained_.threads_seen()) + " threads over " + seconds(end_ns_) + " s; " +
         std::to_string(counts_[1]) + " methods in " + std::to_string(counts_[0]) + " classes instrumented, " +
         std::to_string(counts_[2]) + " trivial methods skipped, " + std::to_string(counts_[3]) + " classes refused");
  if (drained_.full_threads() > 0)
    report("the call tree of " + std::to_string(drained_.full_threads()) + " threads filled treememory=" +
           std::to_string(runtime_->memory().bound()) + " bytes: " + std::to_string(drained_.full_calls()) +
           " calls in calling contexts it had no room for are counted under " + std::string(DrainedTrees::kTreeFull));
}

}  // namespace bn::agent
