#pragma once
// The Java half of mode=calltree, seen from the agent (JNI). The runtime jar (probes and
// per-thread trees, bottlenecks.runtime) goes on the boot class path, so that instrumented JDK
// classes can call it; the transformer jar and ASM are loaded in a class loader of their own
// (bottlenecks.runtime.TransformerLoader). Three kinds of call cross JNI: one per class to
// transform, a few per flush to drain the trees and take the new method names, a few at start.
//
// Every method may run on any thread that has a JNIEnv; none throws, none leaves a Java
// exception pending.

#include <jvmti.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "options.h"
#include "status.h"

namespace bn::agent {

class JavaSide {
 public:
  // `runtime_jar`: appended to the boot class path. `transformer_path`: the transformer jar and
  // the ASM jars, separated by ':'.
  Status load(jvmtiEnv* jvmti, JNIEnv* jni, const std::string& runtime_jar, const std::string& transformer_path);
  // trivial=skip, methods= (null: every method), and clock=tick (the probes' clock ticking every
  // `tick_millis`; 0: clock=exact).
  Status configure(JNIEnv* jni, Options::Trivial trivial, const std::vector<std::string>* methods,
                   std::int64_t tick_millis);
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
  // The flush's next batch of what the trees gained since the last flush (records of four
  // values, Registry.java; the flush's last batch ends with a DONE record), then the names of the
  // methods registered since the last call (ids continue), in standard UTF-8. `records` is
  // replaced, `new_names` appended to.
  Status drain(JNIEnv* jni, std::vector<std::int64_t>& records, std::vector<std::string>& new_names) const;
  // {classes instrumented, methods instrumented, trivial methods skipped, classes refused}.
  std::array<std::int64_t, 4> counts(JNIEnv* jni) const;
  // What one instrumented call costs, in picoseconds (Calibration.java); 0 if it failed.
  std::int64_t picos_per_call(JNIEnv* jni) const;
  // Nanoseconds since the program's first instrumented call on any thread; -1 before it (or if
  // the call failed).
  std::int64_t nanos_since_first_call(JNIEnv* jni) const;
  bool loaded() const { return transformer_ != nullptr; }

 private:
  jclass transformer_ = nullptr;  // global references
  jclass registry_ = nullptr;
  jclass names_ = nullptr;
  jclass calibration_ = nullptr;
  jobject loader_ = nullptr;
  jobject platform_loader_ = nullptr;
  jlongArray drain_batch_ = nullptr;  // the long[] Registry.drain fills, reused at every call
  jmethodID transform_ = nullptr;
  jmethodID configure_ = nullptr;
  jmethodID counts_ = nullptr;
  jmethodID drain_ = nullptr;
  jmethodID take_names_ = nullptr;
  jmethodID picos_ = nullptr;
  jmethodID since_first_call_ = nullptr;
};

}  // namespace bn::agent
