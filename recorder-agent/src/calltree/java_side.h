#pragma once
// The Java half of mode=calltree, seen from the agent (JNI). The runtime jar (probes and
// per-thread trees, bottlenecks.runtime) goes on the boot class path, so that instrumented JDK
// classes can call it; the transformer jar, ASM relocated inside, is loaded in a class loader of
// its own (bottlenecks.runtime.TransformerLoader). Five kinds of call cross JNI: one per class to
// transform, a few per flush to list the trees and take the new method names, a few at start,
// one at the end (the clock's), and the runtime's calls of TreeMemory's natives where a tree is
// created or grows.
//
// Every method may run on any thread that has a JNIEnv; none throws, none leaves a Java
// exception pending.

#include <jvmti.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bn/agent/options.h"
#include "bn/agent/status.h"
#include "calltree/drained_trees.h"
#include "calltree/tree_memory.h"

namespace bn::agent {

class JavaSide {
 public:
  // Appends `runtime_jar` to the boot class path, once: false if the JVM refused. In Agent_OnLoad
  // (the OnLoad phase) the JVM appends it as it would -Xbootclasspath/a:, before it maps the
  // class data sharing archive; in the live phase HotSpot must then give up sharing the archive's
  // application classes, and prints "Sharing is only supported for boot loader classes because
  // bootstrap classpath has been appended" on the program's standard error
  // (ClassLoaderExt::append_boot_classpath, JDK 17). So a recording started with -agentpath
  // appends it at load, and only an attached one in the live phase.
  bool put_on_boot_class_path(jvmtiEnv* jvmti, const std::string& runtime_jar);
  // `runtime_jar`: put on the boot class path if it is not yet; `transformer_jar`: the
  // transformer and the ASM it holds, relocated (recorder-agent/java/relocate). The trees' memory is `memory`'s
  // (TreeMemory.java's natives), which must outlive the JVM's last call of them: the agent never
  // frees it.
  Status load(jvmtiEnv* jvmti, JNIEnv* jni, const std::string& runtime_jar, const std::string& transformer_jar,
              TreeMemory& memory);
  // trivial=skip, methods= (null: every method).
  Status configure(JNIEnv* jni, Options::Trivial trivial, const std::vector<std::string>* methods);
  // A recording starts (Registry.startRecording): nanos_since_first_call counts from its first
  // instrumented call.
  Status start_recording(JNIEnv* jni) const;
  // clock=tick: the probes' clock thread ticks every `tick_millis` (Clock.startTicking), until
  // stop_clock; again after a stop. Without it the clock is exact.
  Status start_clock(JNIEnv* jni, std::int64_t tick_millis);
  // The recording is over: the clock thread ends (Clock.stopTicking), and probes still running in
  // instrumented frames read System.nanoTime(). Nothing if the clock never started.
  void stop_clock(JNIEnv* jni) const;
  // Transforms a class whose bytes the JVM would load; on success *new_data (jvmti-allocated)
  // and *new_length hold the instrumented class and true is returned; false keeps the class.
  bool transform(jvmtiEnv* jvmti, JNIEnv* jni, const char* internal_name, jint length, const unsigned char* data,
                 jint* new_length, unsigned char** new_data) const;
  // Whether `loader` is the transformer's own class loader (its classes, ASM's, are never touched).
  bool is_own_loader(JNIEnv* jni, jobject loader) const;
  // Whether `loader` is the boot (null) or the platform class loader: the JDK's runtime proper
  // (java.base, java.xml, java.sql, ...), as opposed to the application loader's classes, which
  // include the JDK's tools (jdk.compiler: javac) when a program uses them.
  bool is_runtime_loader(JNIEnv* jni, jobject loader) const;
  // Every tree as of now (Registry.snapshot: each ended thread's once more, and last), then the
  // names of the methods registered since the last call (ids continue), in standard UTF-8.
  // `trees` is replaced, `new_names` appended to.
  Status snapshot(JNIEnv* jni, std::vector<TreeView>& trees, std::vector<std::string>& new_names) const;
  // {classes instrumented, methods instrumented, trivial methods skipped, classes refused}.
  std::array<std::int64_t, 4> counts(JNIEnv* jni) const;
  // What one instrumented call costs, in picoseconds (Calibration.java); 0 if it failed.
  std::int64_t picos_per_call(JNIEnv* jni) const;
  // Nanoseconds since the recording's first instrumented call on any thread; -1 before it (or if
  // the call failed).
  std::int64_t nanos_since_first_call(JNIEnv* jni) const;
  bool loaded() const { return transformer_ != nullptr; }

 private:
  bool on_boot_class_path_ = false;
  jclass transformer_ = nullptr;  // global references
  jclass registry_ = nullptr;
  jclass names_ = nullptr;
  jclass calibration_ = nullptr;
  jclass clock_ = nullptr;  // set by start_clock
  jobject loader_ = nullptr;
  jobject platform_loader_ = nullptr;
  jmethodID transform_ = nullptr;
  jmethodID configure_ = nullptr;
  jmethodID counts_ = nullptr;
  jmethodID snapshot_ = nullptr;
  jmethodID take_names_ = nullptr;
  jmethodID picos_ = nullptr;
  jmethodID since_first_call_ = nullptr;
  jmethodID start_recording_ = nullptr;
  jmethodID start_ticking_ = nullptr;
  jmethodID stop_ticking_ = nullptr;
};

}  // namespace bn::agent
