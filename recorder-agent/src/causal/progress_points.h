#pragma once
// The progress points of mode=causal, counted with no change to the program's source:
// `progress=pkg.Class.method` counts every completed call of the method (every overload), with a
// call the transformer (ProgressTransformer.java) puts before each of its returns, and the runtime
// (Progress.java, on the boot class path so that any class can call it) sums; `progress=end` is
// the whole run, one unit (batch programs: each run is one experiment).
//
// A class the JVM loaded before the recording started (a JDK class, say) is retransformed.

#include <jvmti.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bn/agent/status.h"
#include "bn/calltree/causal_data.h"

namespace bn::agent {

class ProgressPoints {
 public:
  // Parses progress= values; not ok naming the bad one. `end` alone, or methods only.
  Status configure(const std::vector<std::string>& values);
  const std::vector<calltree::ProgressPoint>& points() const { return points_; }
  bool whole_run() const { return !points_.empty() && points_.front().kind == calltree::ProgressPoint::Kind::end; }

  // The transformer's jar (the runtime's is on the boot class path: causal_engine.cpp).
  void set_transformer_jar(std::string jar) { transformer_jar_ = std::move(jar); }
  // The live phase: loads the transformer and retransforms the classes already loaded.
  Status start(jvmtiEnv* jvmti, JNIEnv* jni);
  // ClassFileLoadHook: puts the counting calls into a class that has a point's method.
  void class_file_loaded(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jint length, const unsigned char* data,
                         jint* new_length, unsigned char** new_data) const;
  // Calls completed so far at each point (progress=end: none); false if the runtime failed.
  bool sums(JNIEnv* jni, std::vector<std::uint64_t>& out) const;

 private:
  struct Method {
    std::string internal_class;  // "pkg/Class"
    std::string method;
    int point;
  };
  std::vector<calltree::ProgressPoint> points_;
  std::vector<Method> methods_;
  std::string transformer_jar_;
  jclass progress_ = nullptr;  // global references, set by start()
  jclass transformer_ = nullptr;
  jmethodID sums_ = nullptr;
  jmethodID transform_ = nullptr;
};

}  // namespace bn::agent
