#pragma once
// The progress points of mode=causal, counted with no change to the program's source:
// `progress=pkg.Class.method` counts every completed call of the method (every overload), with a
// call the transformer (ProgressTransformer.java) puts before each of its returns, and the runtime
// (Progress.java, on the boot class path so that any class can call it) sums; `progress=end` is
// the whole run, one unit (batch programs: each run is one experiment). `latency=BEGIN:END` is a
// latency point (in_flight.h): the transformer puts a call at the entry of BEGIN (an arrival) and
// before each return of END (a departure), and the runtime (Latency.java) sums their times.
//
// A class the JVM loaded before the recording started (a JDK class, say) is retransformed.

#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "bn/agent/status.h"
#include "bn/calltree/causal_data.h"
#include "causal/in_flight.h"

namespace bn::agent {

class ProgressPoints {
 public:
  // Parses progress= and latency= values; not ok naming the bad one. `end` alone, or methods
  // and latency points only.
  Status configure(const std::vector<std::string>& progress, const std::vector<std::string>& latency);
  const std::vector<calltree::ProgressPoint>& points() const { return points_; }
  bool whole_run() const { return !points_.empty() && points_.front().kind == calltree::ProgressPoint::Kind::end; }

  // The transformer's jar (the runtime's is on the boot class path: causal_engine.cpp).
  void set_transformer_jar(std::string jar) { transformer_jar_ = std::move(jar); }
  // The live phase: hands the runtime the ledger's count of delay inserted (`inserted_ns`, which
  // must outlive the recording), loads the transformer and retransforms the classes already loaded.
  Status start(jvmtiEnv* jvmti, JNIEnv* jni, const std::atomic<std::int64_t>& inserted_ns);
  // ClassFileLoadHook: puts the counting calls into a class that has a point's method.
  void class_file_loaded(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jint length, const unsigned char* data,
                         jint* new_length, unsigned char** new_data) const;
  // The points at one moment, one entry per point in points() order.
  struct Reading {
    std::vector<std::uint64_t> counts;  // completed calls (latency points: arrivals; end: none)
    std::vector<LatencySums> latency;   // zero but at latency points
  };
  // Reads every point; false if the runtime failed.
  bool read(JNIEnv* jni, Reading& out) const;

 private:
  // What the transformer puts into a method (ProgressTransformer's COMPLETED, ARRIVED, DEPARTED).
  enum class Probe : jint { completed = 0, arrived = 1, departed = 2 };
  struct Method {
    std::string internal_class;  // "pkg/Class"
    std::string method;
    int point;
    Probe probe;
  };
  // `name` (pkg.Class.method) as a method probed for the next point; false if malformed.
  bool add_method(std::string_view name, Probe probe);
  bool call_longs(JNIEnv* jni, jclass klass, jmethodID method, std::size_t per_point, std::vector<jlong>& out) const;
  std::vector<calltree::ProgressPoint> points_;
  std::vector<Method> methods_;
  std::string transformer_jar_;
  jclass progress_ = nullptr;  // global references, set by start()
  jclass latency_ = nullptr;
  jclass transformer_ = nullptr;
  jmethodID sums_ = nullptr;
  jmethodID read_latency_ = nullptr;
  jmethodID transform_ = nullptr;
};

}  // namespace bn::agent
