#pragma once
// mode=calltree: the exact call tree, with every instrumented method's calls and
// exclusive time per calling context, on every thread. Bytecode instrumentation, not JVMTI
// MethodEntry/MethodExit (which force the interpreter): ClassFileLoadHook hands each class the
// filters accept to a Java transformer (ASM, in a class loader of its own), which puts probes
// into its methods; the probes build a calling-context tree per thread (Java code on the boot
// class path, no JNI per event) in native memory the agent owns and bounds (TreeMemory); an
// agent thread reads every tree in place at each flush and appends the increments to the profile, so a crash loses at
// most the last interval. Classes loaded before the engine started are retransformed; with duration= they are all
// retransformed back to their original bytes at the end (DYPER, seed 001 sec. 3: detailing for
// a bounded time) and the program runs on at full speed. A later attach may then detail other
// methods in the same JVM: the Java side and the trees stay (CallTreeRuntime), and each
// recording reports only what they gained after its start. docs/recorder.md justifies the design.

#include <jvmti.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "bn/agent/options.h"
#include "bn/calltree/metadata.h"
#include "calltree/calltree_runtime.h"
#include "calltree/class_filter.h"
#include "calltree/drained_trees.h"
#include "core/engine.h"
#include "core/profile_sink.h"

namespace bn::agent {

class CallTreeEngine final : public Engine {
 public:
  explicit CallTreeEngine(const EngineSetup& setup);

  Needs needs() const override;
  Status start(JNIEnv* jni) override;
  void stop() override;
  void end_recording() override;
  bool recording() const override;
  void class_file_loaded(JNIEnv* jni, jclass being_redefined, jobject loader, const char* name, jint length,
                         const unsigned char* data, jint* new_length, unsigned char** new_data) override;

 private:
  // What the class file hook does: nothing until start() is ready, then instrument, then
  // (duration= over, or the VM ending) nothing again: a retransformed class gets its original
  // bytes back.
  enum class Phase { kWaiting, kInstrumenting, kDone };

  // Everything start() does; when it fails, start() stops the clock thread it may have started.
  Status start_recording(JNIEnv* jni);
  static void JNICALL run(jvmtiEnv* jvmti, JNIEnv* jni, void* self);
  void loop(JNIEnv* jni);
  // Waits up to `ns`; false once stop() was called.
  bool wait_ns(std::int64_t ns);
  // Whether the stop was end_recording()'s: the classes get their original bytes back first.
  bool restore_requested() const;
  // duration=: how long the instrumentation has left, counted from the first instrumented call.
  std::int64_t detailing_left_ns(JNIEnv* jni) const;
  void set_running(bool running);
  // Whether the filters (and methods=) let the hook instrument the class `internal_name` of
  // `loader`: without include=, the JDK's runtime (boot and platform loaders) is left out.
  bool wants(JNIEnv* jni, std::string_view internal_name, jobject loader) const;
  // The loaded classes `select(jni, internal name, loader)` accepts, retransformed in one call
  // (one by one if that fails); returns how many were.
  template <class Select>
  std::uint64_t retransform_loaded(JNIEnv* jni, Select select);
  void flush(JNIEnv* jni);
  // Ends the detailing (duration= over, or maxoverhead= reached): every instrumented class gets
  // its original bytes back; the hook does nothing from now on.
  void restore(JNIEnv* jni, std::string why);
  // The probes' estimated cost so far: calls drained times the calibrated cost of one.
  std::int64_t estimated_cost_ns() const;
  calltree::Metadata metadata(bool final, JNIEnv* jni) const;
  void report_summary() const;

  jvmtiEnv* jvmti_;
  Options options_;
  ClassFilter filter_;
  std::optional<std::vector<std::string>> methods_;  // methods=: the only methods instrumented
  std::unordered_set<std::string> method_classes_;   // their classes, internal names
  std::int64_t start_ns_;
  std::int64_t start_unix_ns_;
  std::int64_t end_ns_ = 0;
  std::string jvm_;
  std::string command_line_;

  std::atomic<Phase> phase_{Phase::kWaiting};
  // The JVM's, shared with its other call-tree recordings; set by start_recording, before the hook
  // does anything.
  CallTreeRuntime* runtime_ = nullptr;
  std::mutex instrumented_mutex_;
  std::unordered_set<std::string> instrumented_;  // internal names of the classes given probes

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_requested_ = false;   // guarded by mutex_
  bool restore_on_stop_ = false;  // guarded by mutex_: end_recording(), the VM living on
  bool running_ = false;          // guarded by mutex_: the flusher thread started, not finished

  // Its metrics in the recording's tree: exclusive ns, then calls (DrainedTrees), merged into the
  // tree under sink_.lock_tree() at each flush.
  SinkPart sink_;
  DrainedTrees drained_;
  std::vector<TreeView> trees_;  // reused between flushes
  std::uint64_t retransformed_at_start_ = 0;
  std::uint64_t restored_ = 0;  // classes retransformed back (duration=, maxoverhead=)
  bool restored_all_ = false;
  std::string stopped_by_;                         // why the detailing ended early, for the metadata
  std::int64_t picos_per_call_ = 0;                // Calibration.java, measured at start
  std::int64_t flush_cpu_ns_ = 0;                  // the flusher thread's CPU time
  std::atomic<std::int64_t> transform_cpu_ns_{0};  // CPU time in the hook, on the loading threads
  std::uint64_t flushes_ = 0;
  // The transformer's counts (JavaSide::counts) at start, and what they gained by the last flush.
  std::array<std::int64_t, 4> counts_at_start_{};
  std::array<std::int64_t, 4> counts_{};
};

}  // namespace bn::agent
