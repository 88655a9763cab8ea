#include "causal/progress_points.h"

#include <algorithm>

#include "core/jni_failed.h"
#include "core/jni_values.h"
#include "core/local_frame.h"

namespace bn::agent {
namespace {

constexpr int kMaxPoints = 64;  // Progress.MAX_POINTS

}  // namespace

Status ProgressPoints::configure(const std::vector<std::string>& values) {
  for (const std::string& value : values) {
    if (value == "end") {
      points_.push_back({value, calltree::ProgressPoint::Kind::end});
      continue;
    }
    const std::size_t dot = value.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == value.size() ||
        value.find_first_of("(;/ ") != std::string::npos)
      return Status::error("bad option 'progress=" + value + "': expected pkg.Class.method or end");
    if (std::any_of(points_.begin(), points_.end(), [&](const calltree::ProgressPoint& p) { return p.name == value; }))
      continue;
    std::string klass = value.substr(0, dot);
    std::replace(klass.begin(), klass.end(), '.', '/');
    methods_.push_back({klass, value.substr(dot + 1), static_cast<int>(points_.size())});
    points_.push_back({value, calltree::ProgressPoint::Kind::throughput});
  }
  if (points_.empty())
    return Status::error("mode=causal needs a progress point: progress=pkg.Class.method or progress=end");
  if (whole_run() ? points_.size() > 1 : std::any_of(points_.begin(), points_.end(), [](const auto& p) {
        return p.kind == calltree::ProgressPoint::Kind::end;
      }))
    return Status::error("progress=end measures whole runs and cannot be combined with other progress points");
  if (points_.size() > kMaxPoints) return Status::error("more than 64 progress points");
  return Status();
}

Status ProgressPoints::start(jvmtiEnv* jvmti, JNIEnv* jni) {
  if (methods_.empty()) return Status();
  {
    const LocalFrame frame(jni, 16);
    if (!frame) return Status::error("out of JNI local references");
    progress_ = global_class(jni, jni->FindClass("bottlenecks/runtime/Progress"));
    const jclass loader = jni->FindClass("bottlenecks/runtime/TransformerLoader");
    if (failed(jni) || progress_ == nullptr || loader == nullptr)
      return Status::error("cannot load the runtime's Progress class");
    sums_ = jni->GetStaticMethodID(progress_, "sums", "(I)[J");
    const jmethodID load =
        jni->GetStaticMethodID(loader, "load", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Class;");
    if (failed(jni) || sums_ == nullptr || load == nullptr)
      return Status::error("the runtime is not this agent's version");
    const jstring jar = jni->NewStringUTF(transformer_jar_.c_str());
    const jstring name = jni->NewStringUTF("bottlenecks.transform.ProgressTransformer");
    const auto klass = static_cast<jclass>(jni->CallStaticObjectMethod(loader, load, jar, name));
    if (failed(jni) || klass == nullptr)
      return Status::error("cannot load the transformer from '" + transformer_jar_ + "'");
    transform_ = jni->GetStaticMethodID(klass, "transform", "([B[Ljava/lang/String;[I)[B");
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
  if (failed(jni) || bytes == nullptr || names == nullptr || points == nullptr) return;
  std::vector<jint> point_ids;
  for (jsize i = 0; i < size; ++i) {
    jni->SetObjectArrayElement(names, i, jni->NewStringUTF(in_class[static_cast<std::size_t>(i)]->method.c_str()));
    point_ids.push_back(in_class[static_cast<std::size_t>(i)]->point);
  }
  jni->SetIntArrayRegion(points, 0, size, point_ids.data());
  if (failed(jni)) return;
  const auto result =
      static_cast<jbyteArray>(jni->CallStaticObjectMethod(transformer_, transform_, bytes, names, points));
  replace_class_bytes(jvmti, jni, result, new_length, new_data);
}

bool ProgressPoints::sums(JNIEnv* jni, std::vector<std::uint64_t>& out) const {
  out.assign(points_.size(), 0);
  if (methods_.empty()) return true;
  if (progress_ == nullptr) return false;
  const LocalFrame frame(jni, 4);
  if (!frame) return false;
  const auto array =
      static_cast<jlongArray>(jni->CallStaticObjectMethod(progress_, sums_, static_cast<jint>(points_.size())));
  if (failed(jni) || array == nullptr) return false;
  std::vector<jlong> values(points_.size());
  jni->GetLongArrayRegion(array, 0, static_cast<jsize>(values.size()), values.data());
  if (failed(jni)) return false;
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<std::uint64_t>(values[i]);
  return true;
}

}  // namespace bn::agent
