#include "causal/progress_points.h"

#include <algorithm>

#include "core/jni_failed.h"
#include "core/jni_values.h"
#include "core/local_frame.h"

namespace bn::agent {
namespace {

constexpr int kMaxPoints = 64;  // Progress.MAX_POINTS

}  // namespace

bool ProgressPoints::add_method(std::string_view name, Probe probe) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size() ||
      name.find_first_of("(;/: ") != std::string_view::npos)
    return false;
  std::string klass(name.substr(0, dot));
  std::replace(klass.begin(), klass.end(), '.', '/');
  methods_.push_back({klass, std::string(name.substr(dot + 1)), static_cast<int>(points_.size()), probe});
  return true;
}

Status ProgressPoints::configure(const std::vector<std::string>& progress, const std::vector<std::string>& latency) {
  const auto known = [&](const std::string& name) {
    return std::any_of(points_.begin(), points_.end(),
                       [&](const calltree::ProgressPoint& p) { return p.name == name; });
  };
  for (const std::string& value : progress) {
    if (value == "end") {
      points_.push_back({value, calltree::ProgressPoint::Kind::end});
      continue;
    }
    if (known(value)) continue;
    if (!add_method(value, Probe::completed))
      return Status::error("bad option 'progress=" + value + "': expected pkg.Class.method or end");
    points_.push_back({value, calltree::ProgressPoint::Kind::throughput});
  }
  for (const std::string& value : latency) {
    if (known(value)) continue;
    // BEGIN:END (':' as in other list values: ',' separates the agent's options).
    const std::size_t colon = value.find(':');
    const std::string_view whole(value);
    if (colon == std::string::npos || !add_method(whole.substr(0, colon), Probe::arrived) ||
        !add_method(whole.substr(colon + 1), Probe::departed))
      return Status::error("bad option 'latency=" + value + "': expected BEGIN:END, two pkg.Class.method");
    points_.push_back({value, calltree::ProgressPoint::Kind::latency});
  }
  if (points_.empty())
    return Status::error(
        "mode=causal needs a progress point: progress=pkg.Class.method, latency=BEGIN:END or progress=end");
  if (whole_run() ? points_.size() > 1 : std::any_of(points_.begin(), points_.end(), [](const auto& p) {
        return p.kind == calltree::ProgressPoint::Kind::end;
      }))
    return Status::error("progress=end measures whole runs and cannot be combined with other progress points");
  if (points_.size() > kMaxPoints) return Status::error("more than 64 progress points");
  return Status();
}

Status ProgressPoints::start(jvmtiEnv* jvmti, JNIEnv* jni, const std::atomic<std::int64_t>& inserted_ns) {
  if (methods_.empty()) return Status();
  {
    const LocalFrame frame(jni, 16);
    if (!frame) return Status::error("out of JNI local references");
    progress_ = global_class(jni, jni->FindClass("bottlenecks/runtime/Progress"));
    latency_ = global_class(jni, jni->FindClass("bottlenecks/runtime/Latency"));
    const jclass loader = jni->FindClass("bottlenecks/runtime/TransformerLoader");
    if (failed(jni) || progress_ == nullptr || latency_ == nullptr || loader == nullptr)
      return Status::error("cannot load the runtime's Progress and Latency classes");
    sums_ = jni->GetStaticMethodID(progress_, "sums", "(I)[J");
    read_latency_ = jni->GetStaticMethodID(latency_, "read", "(I)[J");
    const jmethodID set_inserted = jni->GetStaticMethodID(latency_, "setInserted", "(Ljava/nio/ByteBuffer;)V");
    const jmethodID load =
        jni->GetStaticMethodID(loader, "load", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Class;");
    if (failed(jni) || sums_ == nullptr || read_latency_ == nullptr || set_inserted == nullptr || load == nullptr)
      return Status::error("the runtime is not this agent's version");
    // Java reads the counter with a volatile load of 8 bytes, as the atomic is laid out.
    static_assert(sizeof(inserted_ns) == sizeof(jlong) && std::atomic<std::int64_t>::is_always_lock_free);
    const jobject counter =
        jni->NewDirectByteBuffer(const_cast<std::atomic<std::int64_t>*>(&inserted_ns), sizeof(jlong));
    if (failed(jni) || counter == nullptr) return Status::error("cannot hand the runtime the delay counter");
    jni->CallStaticVoidMethod(latency_, set_inserted, counter);
    if (failed(jni)) return Status::error("cannot hand the runtime the delay counter");
    const jstring jar = jni->NewStringUTF(transformer_jar_.c_str());
    const jstring name = jni->NewStringUTF("bottlenecks.transform.ProgressTransformer");
    const auto klass = static_cast<jclass>(jni->CallStaticObjectMethod(loader, load, jar, name));
    if (failed(jni) || klass == nullptr)
      return Status::error("cannot load the transformer from '" + transformer_jar_ + "'");
    transform_ = jni->GetStaticMethodID(klass, "transform", "([B[Ljava/lang/String;[I[I)[B");
    if (failed(jni) || transform_ == nullptr) return Status::error("the transformer is not this agent's version");
    transformer_ = global_class(jni, klass);  // last: class_file_loaded transforms from now on
  }
  jint count = 0;
  jclass* classes = nullptr;
  if (jvmti->GetLoadedClasses(&count, &classes) != JVMTI_ERROR_NONE) return Status();
  std::vector<jclass> loaded;
  for (jint i = 0; i < count; ++i) {
    char* signature = nullptr;
    if (jvmti->GetClassSignature(classes[i], &signature, nullptr) != JVMTI_ERROR_NONE) continue;
    const std::string_view sig(signature);
    for (const Method& m : methods_)
      if (sig.size() == m.internal_class.size() + 2 && sig.substr(1, m.internal_class.size()) == m.internal_class)
        loaded.push_back(classes[i]);
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(signature));
  }
  Status status;
  if (!loaded.empty() && jvmti->RetransformClasses(static_cast<jint>(loaded.size()), loaded.data()) != JVMTI_ERROR_NONE)
    status = Status::error("cannot retransform the classes of progress points loaded before the recording");
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(classes));
  return status;
}

void ProgressPoints::class_file_loaded(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jint length,
                                       const unsigned char* data, jint* new_length, unsigned char** new_data) const {
  if (transformer_ == nullptr || name == nullptr || jni == nullptr) return;
  std::vector<const Method*> in_class;
  for (const Method& m : methods_)
    if (m.internal_class == name) in_class.push_back(&m);
  if (in_class.empty()) return;
  const LocalFrame frame(jni, 8 + static_cast<jint>(in_class.size()));
  if (!frame) return;
  const jbyteArray bytes = java_bytes(jni, data, length);
  const jclass string_class = jni->FindClass("java/lang/String");
  const auto size = static_cast<jsize>(in_class.size());
  const jobjectArray names = string_class != nullptr ? jni->NewObjectArray(size, string_class, nullptr) : nullptr;
  const jintArray points = jni->NewIntArray(size);
  const jintArray probes = jni->NewIntArray(size);
  if (failed(jni) || bytes == nullptr || names == nullptr || points == nullptr || probes == nullptr) return;
  std::vector<jint> point_ids;
  std::vector<jint> probe_kinds;
  for (jsize i = 0; i < size; ++i) {
    const Method& m = *in_class[static_cast<std::size_t>(i)];
    jni->SetObjectArrayElement(names, i, jni->NewStringUTF(m.method.c_str()));
    point_ids.push_back(m.point);
    probe_kinds.push_back(static_cast<jint>(m.probe));
  }
  jni->SetIntArrayRegion(points, 0, size, point_ids.data());
  jni->SetIntArrayRegion(probes, 0, size, probe_kinds.data());
  if (failed(jni)) return;
  const auto result =
      static_cast<jbyteArray>(jni->CallStaticObjectMethod(transformer_, transform_, bytes, names, points, probes));
  replace_class_bytes(jvmti, jni, result, new_length, new_data);
}

// One long per point from the runtime's static `method(count)`, `per_point` longs each.
bool ProgressPoints::call_longs(JNIEnv* jni, jclass klass, jmethodID method, std::size_t per_point,
                                std::vector<jlong>& out) const {
  out.assign(points_.size() * per_point, 0);
  if (klass == nullptr) return false;
  const LocalFrame frame(jni, 4);
  if (!frame) return false;
  const auto array =
      static_cast<jlongArray>(jni->CallStaticObjectMethod(klass, method, static_cast<jint>(points_.size())));
  if (failed(jni) || array == nullptr) return false;
  jni->GetLongArrayRegion(array, 0, static_cast<jsize>(out.size()), out.data());
  return !failed(jni);
}

bool ProgressPoints::read(JNIEnv* jni, Reading& out) const {
  out.counts.assign(points_.size(), 0);
  out.latency.assign(points_.size(), LatencySums{});
  if (methods_.empty()) return true;
  std::vector<jlong> counts;
  if (!call_longs(jni, progress_, sums_, 1, counts)) return false;
  for (std::size_t i = 0; i < points_.size(); ++i) out.counts[i] = static_cast<std::uint64_t>(counts[i]);
  if (std::none_of(points_.begin(), points_.end(),
                   [](const auto& p) { return p.kind == calltree::ProgressPoint::Kind::latency; }))
    return true;
  // Latency.read: arrivals, their time sum, departures, theirs, the reading's time.
  std::vector<jlong> sums;
  if (!call_longs(jni, latency_, read_latency_, 5, sums)) return false;
  const auto at = [&](std::size_t i) { return static_cast<std::uint64_t>(sums[i]); };
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (points_[i].kind != calltree::ProgressPoint::Kind::latency) continue;
    out.latency[i] = {at(5 * i), at(5 * i + 1), at(5 * i + 2), at(5 * i + 3), at(5 * i + 4)};
    out.counts[i] = out.latency[i].arrivals;
  }
  return true;
}

}  // namespace bn::agent
