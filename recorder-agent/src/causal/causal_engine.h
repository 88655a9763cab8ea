#pragma once
// mode=causal: causal profiling by virtual speedup (seed 003, JCoz; Coz, SOSP 2015) with a
// BOTTLENECKS summary or label as the unit (causal_targets.h). The run is a sequence of
// experiments, each of one target and one virtual speedup s: every Java thread is sampled every
// `period` of its own CPU (causal_threads.h); a sample whose stack satisfies the target makes
// every other thread owe a pause of s x period (delay_ledger.h), which it sleeps at its next
// sample, and the progress points (progress_points.h) count what the program got done. An
// experiment's effective duration is its length minus the pauses inserted (hits x delay), so
// its rate of progress is the program's with the target s faster; the analyzer (docs/causal.md)
// compares each rate with the experiments at 0%.
//
// The sampler (mode=sample) runs beside it in the same recording, so the profile holds the
// ordinary sampled call tree of the same run; this engine adds the experiments ("caus" chunks,
// causal_records.h). Recording from the program's start only: a thread is sampled from its
// ThreadStart, so an attach would miss the threads already running.

#include <jvmti.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "bn/agent/options.h"
#include "bn/calltree/causal_data.h"
#include "bn/calltree/metadata.h"
#include "causal/blocking_hooks.h"
#include "causal/causal_targets.h"
#include "causal/causal_threads.h"
#include "causal/delay_ledger.h"
#include "causal/method_symbols.h"
#include "causal/progress_points.h"
#include "causal/warm_up.h"
#include "core/engine.h"
#include "core/profile_sink.h"
#include "sample/signal_stacks.h"

namespace bn::agent {

class CausalEngine final : public Engine {
 public:
  explicit CausalEngine(const EngineSetup& setup);

  Needs needs() const override;
  void granted(const jvmtiCapabilities& possessed) override;
  Status start(JNIEnv* jni) override;
  void stop() override;
  bool recording() const override;
  void thread_started(JNIEnv* jni, jthread thread) override;
  void thread_ended(JNIEnv* jni, jthread thread) override;
  void class_prepared(JNIEnv* jni, jthread thread, jclass klass) override;
  void class_file_loaded(JNIEnv* jni, jclass being_redefined, jobject loader, const char* name, jint length,
                         const unsigned char* data, jint* new_length, unsigned char** new_data) override;
  void monitor_contended_enter(JNIEnv* jni, jthread thread) override;
  void monitor_contended_entered(JNIEnv* jni, jthread thread) override;
  void monitor_wait(JNIEnv* jni, jthread thread) override;
  void monitor_waited(JNIEnv* jni, jthread thread, bool timed_out) override;
  void native_method_bound(JNIEnv* jni, jmethodID method, void* address) override;

 private:
  // active_target_ besides a target's index: no experiment, or the warm-up.
  static constexpr int kNoTarget = -1;
  static constexpr int kWarmingUp = -2;
  // A thread pays at most this much per sample: a thread paused in its handler holds up any
  // safepoint the JVM starts meanwhile, so long debts are paid in pieces, one per sample.
  static constexpr std::int64_t kMaxPauseNs = 10'000'000;
  // An experiment that counted fewer units than this at some point is doubled next time (Coz).
  static constexpr std::uint64_t kMinProgress = 5;
  static constexpr std::int64_t kMaxExperimentNs = 16'000'000'000;
  static constexpr std::size_t kDefaultTargets = 8;
  static constexpr std::int64_t kMaxPeriodNs = 100'000'000;
  // Frames a sample walks (depth=, at most this): each thread keeps 24 bytes a frame for its
  // walks, allocated when it starts (never in the handler), so a server of 2,000 threads holds
  // 48 MiB at this bound. A target's frames beyond it (the outermost) are not seen.
  static constexpr std::uint32_t kMaxFrames = 1024;

  static void on_sample(CausalThread& thread, void* ucontext, std::int64_t periods);
  void sample(CausalThread& thread, void* ucontext, std::int64_t periods);
  static void JNICALL run(jvmtiEnv* jvmti, JNIEnv* jni, void* self);
  void loop(JNIEnv* jni);
  // Waits `ns` or until stop(); false if stopped (or duration= is over).
  bool wait_ns(std::int64_t ns);
  // The warm-up, when no target was given; false if it found none.
  bool find_default_targets();
  void publish_targets();
  // One experiment of `length_ns`; false if stopped before its end (then it is not kept).
  bool experiment(JNIEnv* jni, std::int64_t& length_ns);
  std::uint32_t pick_speedup();
  // maxoverhead=: the sampling's cost over the experiment just ended (handler time per CPU
  // sampled); above the bound, the period doubles (up to kMaxPeriodNs) for the experiments after.
  void bound_overhead(std::int64_t handler_ns, std::uint64_t periods);
  // Begins an experiment: the ledger's delay, then the target the handlers test.
  void begin(int target, std::uint32_t speedup);
  void keep(calltree::CausalExperiment e);
  void flush();
  void set_running(bool running);
  jint frames_per_thread() const;
  calltree::Metadata metadata(bool final) const;

  JavaVM* vm_;
  jvmtiEnv* jvmti_;
  Options options_;
  bool attached_;
  SinkPart sink_;
  AsyncWalk walk_ = nullptr;
  Status configured_;  // the targets' and progress points' errors, reported by start()
  bool monitor_events_ = false;
  std::string jvm_;
  std::int64_t start_ns_ = 0;
  std::int64_t start_unix_ns_ = 0;
  std::int64_t end_ns_ = 0;

  CausalTargets targets_;
  ProgressPoints progress_;
  DelayLedger ledger_;
  BlockingHooks hooks_{ledger_};
  std::unique_ptr<WarmUp> warm_up_;
  std::unique_ptr<MethodSymbols> symbols_owner_;
  std::atomic<MethodSymbols*> symbols_{nullptr};
  std::atomic<int> active_target_{kNoTarget};
  std::atomic<bool> stopped_{false};  // the handlers do nothing
  std::atomic<bool> started_{false};  // threads get timers

  // Each thread's CPU between samples: period= at first, doubled while the sampling costs more
  // than maxoverhead= of the CPU it samples.
  std::atomic<std::int64_t> period_ns_{0};
  std::atomic<std::int64_t> handler_ns_{0};  // time the handlers took, their pauses left out
  std::atomic<std::uint64_t> samples_{0};
  std::atomic<std::uint64_t> target_samples_{0};
  std::atomic<std::uint64_t> walk_failures_{0};
  std::atomic<std::uint64_t> threads_without_clock_{0};
  std::atomic<std::uint64_t> threads_sampled_{0};

  std::mt19937_64 random_;
  std::size_t next_target_ = 0;
  calltree::CausalData header_;  // period, targets, points, aspects: every chunk's
  std::mutex experiments_mutex_;
  std::vector<calltree::CausalExperiment> unflushed_;  // guarded by experiments_mutex_
  std::uint64_t experiments_ = 0;                      // kept, guarded by experiments_mutex_
  // progress=end: the run's one experiment, begun in start() and kept by stop().
  int whole_run_target_ = kNoTarget;
  std::uint32_t whole_run_speedup_ = 0;
  std::uint64_t whole_run_samples_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool running_ = false;         // guarded by mutex_: the experiment thread started, not finished
  bool stop_requested_ = false;  // guarded by mutex_
  bool finished_ = false;        // guarded by mutex_: the part is complete
};

}  // namespace bn::agent
