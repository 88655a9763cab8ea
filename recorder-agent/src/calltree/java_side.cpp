#include "calltree/java_side.h"

#include <cstring>

#include "core/jni_failed.h"
#include "core/jni_values.h"
#include "core/jvm_text.h"
#include "core/local_frame.h"

namespace bn::agent {
namespace {

// TreeMemory.java's natives. JNI gives a native no context of its own: the one TreeMemory of the
// JVM's call-tree recordings (CallTreeRuntime), set by JavaSide::load before the natives are
// registered.
TreeMemory* g_tree_memory = nullptr;

jlong JNICALL create_region(JNIEnv*, jclass) { return static_cast<jlong>(g_tree_memory->create()); }

jlong JNICALL grow_region(JNIEnv*, jclass, jlong base) {
  return static_cast<jlong>(g_tree_memory->grow(static_cast<std::uintptr_t>(base)));
}

jlong JNICALL committed_bytes(JNIEnv*, jclass) { return static_cast<jlong>(g_tree_memory->committed()); }

}  // namespace

bool JavaSide::put_on_boot_class_path(jvmtiEnv* jvmti, const std::string& runtime_jar) {
  if (!on_boot_class_path_)
    on_boot_class_path_ = jvmti->AddToBootstrapClassLoaderSearch(runtime_jar.c_str()) == JVMTI_ERROR_NONE;
  return on_boot_class_path_;
}

Status JavaSide::load(jvmtiEnv* jvmti, JNIEnv* jni, const std::string& runtime_jar, const std::string& transformer_jar,
                      TreeMemory& memory) {
  if (!put_on_boot_class_path(jvmti, runtime_jar))
    return Status::error("cannot put '" + runtime_jar + "' on the boot class path");
  const LocalFrame frame(jni, 16);
  if (!frame) return Status::error("out of JNI local references");
  registry_ = global_class(jni, jni->FindClass("bottlenecks/runtime/Registry"));
  names_ = global_class(jni, jni->FindClass("bottlenecks/runtime/MethodNames"));
  calibration_ = global_class(jni, jni->FindClass("bottlenecks/runtime/Calibration"));
  const jclass loader_class = jni->FindClass("bottlenecks/runtime/TransformerLoader");
  const jclass tree_memory = jni->FindClass("bottlenecks/runtime/TreeMemory");
  if (failed(jni) || registry_ == nullptr || names_ == nullptr || calibration_ == nullptr || loader_class == nullptr ||
      tree_memory == nullptr)
    return Status::error("cannot load the runtime classes from '" + runtime_jar + "'");
  g_tree_memory = &memory;
  const JNINativeMethod natives[] = {
      {const_cast<char*>("create"), const_cast<char*>("()J"), reinterpret_cast<void*>(create_region)},
      {const_cast<char*>("grow"), const_cast<char*>("(J)J"), reinterpret_cast<void*>(grow_region)},
      {const_cast<char*>("committed"), const_cast<char*>("()J"), reinterpret_cast<void*>(committed_bytes)}};
  if (jni->RegisterNatives(tree_memory, natives, 3) != JNI_OK || failed(jni))
    return Status::error("the runtime in '" + runtime_jar + "' is not this agent's version (TreeMemory)");
  // CurrentTree reads a thread's id from Thread's field with jdk.internal.misc.Unsafe, which
  // java.base exports to its own modules only: Thread.getId() can be overridden by the program,
  // and a probe must never call the program's code. GetNamedModule takes the package's internal
  // name, AddModuleExports its dotted one (HotSpot hands it to java.lang.Module).
  jobject java_base = nullptr;
  const jobject runtime_module = jni->GetModule(registry_);
  if (jvmti->GetNamedModule(nullptr, "jdk/internal/misc", &java_base) != JVMTI_ERROR_NONE || java_base == nullptr ||
      runtime_module == nullptr ||
      jvmti->AddModuleExports(java_base, "jdk.internal.misc", runtime_module) != JVMTI_ERROR_NONE)
    return Status::error("cannot export jdk.internal.misc to the runtime in '" + runtime_jar + "'");
  snapshot_ = jni->GetStaticMethodID(registry_, "snapshot", "()[J");
  take_names_ = jni->GetStaticMethodID(names_, "takeNew", "()[Ljava/lang/String;");
  picos_ = jni->GetStaticMethodID(calibration_, "picosPerCall", "()J");
  since_first_call_ = jni->GetStaticMethodID(registry_, "nanosSinceFirstCall", "()J");
  start_recording_ = jni->GetStaticMethodID(registry_, "startRecording", "()V");
  const jmethodID load =
      jni->GetStaticMethodID(loader_class, "load", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Class;");
  if (failed(jni) || snapshot_ == nullptr || take_names_ == nullptr || picos_ == nullptr ||
      since_first_call_ == nullptr || start_recording_ == nullptr || load == nullptr)
    return Status::error("the runtime in '" + runtime_jar + "' is not this agent's version");
  const jstring path = jni->NewStringUTF(transformer_jar.c_str());
  const jstring name = jni->NewStringUTF("bottlenecks.transform.Transformer");
  const auto klass = static_cast<jclass>(jni->CallStaticObjectMethod(loader_class, load, path, name));
  if (failed(jni) || klass == nullptr)
    return Status::error("cannot load the transformer from '" + transformer_jar + "'");
  configure_ = jni->GetStaticMethodID(klass, "configure", "(I[Ljava/lang/String;)V");
  transform_ = jni->GetStaticMethodID(klass, "transform", "(Ljava/lang/String;[B)[B");
  counts_ = jni->GetStaticMethodID(klass, "counts", "()[J");
  const jclass class_class = jni->FindClass("java/lang/Class");
  const jmethodID get_loader =
      class_class != nullptr ? jni->GetMethodID(class_class, "getClassLoader", "()Ljava/lang/ClassLoader;") : nullptr;
  const jobject loader = get_loader != nullptr ? jni->CallObjectMethod(klass, get_loader) : nullptr;
  if (failed(jni) || configure_ == nullptr || transform_ == nullptr || counts_ == nullptr || loader == nullptr)
    return Status::error("the transformer in '" + transformer_jar + "' is not this agent's version");
  const jclass loader_class_class = jni->FindClass("java/lang/ClassLoader");
  const jmethodID get_platform =
      loader_class_class != nullptr
          ? jni->GetStaticMethodID(loader_class_class, "getPlatformClassLoader", "()Ljava/lang/ClassLoader;")
          : nullptr;
  const jobject platform =
      get_platform != nullptr ? jni->CallStaticObjectMethod(loader_class_class, get_platform) : nullptr;
  if (failed(jni) || platform == nullptr) return Status::error("cannot find the JDK's platform class loader");
  platform_loader_ = jni->NewGlobalRef(platform);
  loader_ = jni->NewGlobalRef(loader);
  transformer_ = global_class(jni, klass);  // last: loaded() means everything above is set
  return Status();
}

Status JavaSide::configure(JNIEnv* jni, Options::Trivial trivial, const std::vector<std::string>* methods) {
  const LocalFrame frame(jni, 8);
  if (!frame) return Status::error("out of JNI local references");
  jobjectArray array = nullptr;
  if (methods != nullptr) {
    const jclass string_class = jni->FindClass("java/lang/String");
    array = string_class != nullptr ? jni->NewObjectArray(static_cast<jsize>(methods->size()), string_class, nullptr)
                                    : nullptr;
    if (failed(jni) || array == nullptr) return Status::error("out of Java heap for the methods of methods=");
    for (std::size_t i = 0; i < methods->size(); ++i) {
      const jstring s = jni->NewStringUTF((*methods)[i].c_str());
      if (failed(jni) || s == nullptr) return Status::error("out of Java heap for the methods of methods=");
      jni->SetObjectArrayElement(array, static_cast<jsize>(i), s);
      jni->DeleteLocalRef(s);
    }
  }
  // Transformer.configure's rule: 0 count, 1 skip, 2 wrappers.
  jni->CallStaticVoidMethod(transformer_, configure_, static_cast<jint>(trivial), array);
  if (failed(jni)) return Status::error("cannot configure the transformer");
  return Status();
}

Status JavaSide::start_recording(JNIEnv* jni) const {
  jni->CallStaticVoidMethod(registry_, start_recording_);
  if (failed(jni)) return Status::error("cannot start a recording in the runtime");
  return Status();
}

Status JavaSide::start_clock(JNIEnv* jni, std::int64_t tick_millis) {
  const LocalFrame frame(jni, 4);
  if (!frame) return Status::error("out of JNI local references");
  if (clock_ == nullptr) {  // the first recording with clock=tick: Clock is looked up once
    const jclass clock = global_class(jni, jni->FindClass("bottlenecks/runtime/Clock"));
    start_ticking_ = clock != nullptr ? jni->GetStaticMethodID(clock, "startTicking", "(J)V") : nullptr;
    stop_ticking_ = start_ticking_ != nullptr ? jni->GetStaticMethodID(clock, "stopTicking", "()V") : nullptr;
    if (failed(jni) || stop_ticking_ == nullptr)
      return Status::error("the runtime has no clock=tick (not this agent's version)");
    clock_ = clock;  // before the start: a start that fails halfway is stopped too
  }
  jni->CallStaticVoidMethod(clock_, start_ticking_, static_cast<jlong>(tick_millis));
  if (failed(jni)) return Status::error("cannot start the probes' clock thread");
  return Status();
}

void JavaSide::stop_clock(JNIEnv* jni) const {
  if (clock_ == nullptr) return;
  jni->CallStaticVoidMethod(clock_, stop_ticking_);
  // stopTicking retires the ticker before anything in it can throw (interrupt's
  // SecurityException): the ticker then ends at its next tick all the same.
  failed(jni);
}

bool JavaSide::transform(jvmtiEnv* jvmti, JNIEnv* jni, const char* internal_name, jint length,
                         const unsigned char* data, jint* new_length, unsigned char** new_data) const {
  const LocalFrame frame(jni, 8);
  if (!frame) return false;
  const jstring name = jni->NewStringUTF(internal_name);
  const jbyteArray bytes = java_bytes(jni, data, length);
  if (failed(jni) || name == nullptr || bytes == nullptr) return false;
  const auto result = static_cast<jbyteArray>(jni->CallStaticObjectMethod(transformer_, transform_, name, bytes));
  return replace_class_bytes(jvmti, jni, result, new_length, new_data);
}

bool JavaSide::is_own_loader(JNIEnv* jni, jobject loader) const {
  return loader != nullptr && loader_ != nullptr && jni->IsSameObject(loader, loader_);
}

bool JavaSide::is_runtime_loader(JNIEnv* jni, jobject loader) const {
  return loader == nullptr || jni->IsSameObject(loader, platform_loader_);
}

Status JavaSide::snapshot(JNIEnv* jni, std::vector<TreeView>& trees, std::vector<std::string>& new_names) const {
  const LocalFrame frame(jni, 16);
  if (!frame) return Status::error("out of JNI local references");
  // The trees first, then the names: a node read now holds a method registered before.
  const auto list = static_cast<jlongArray>(jni->CallStaticObjectMethod(registry_, snapshot_));
  if (failed(jni) || list == nullptr) return Status::error("cannot list the call trees (out of Java heap?)");
  const jsize longs = jni->GetArrayLength(list);
  std::vector<std::int64_t> values(static_cast<std::size_t>(longs));
  static_assert(sizeof(jlong) == sizeof(std::int64_t));
  jni->GetLongArrayRegion(list, 0, longs, reinterpret_cast<jlong*>(values.data()));
  trees.clear();
  for (std::size_t i = 0; i + 4 <= values.size(); i += 4)
    trees.push_back(TreeView{values[i], static_cast<std::uintptr_t>(values[i + 1]), values[i + 2], values[i + 3] != 0});
  const auto names = static_cast<jobjectArray>(jni->CallStaticObjectMethod(names_, take_names_));
  if (failed(jni) || names == nullptr) return Status::error("cannot take the method names (out of Java heap?)");
  const jsize count = jni->GetArrayLength(names);
  for (jsize i = 0; i < count; ++i) {
    const auto s = static_cast<jstring>(jni->GetObjectArrayElement(names, i));
    const char* utf = s != nullptr ? jni->GetStringUTFChars(s, nullptr) : nullptr;
    new_names.push_back(utf != nullptr ? standard_utf8(utf) : std::string("[unknown method]"));
    if (utf != nullptr) jni->ReleaseStringUTFChars(s, utf);
    if (s != nullptr) jni->DeleteLocalRef(s);
  }
  if (failed(jni)) return Status::error("cannot take the method names (out of Java heap?)");
  return Status();
}

std::array<std::int64_t, 4> JavaSide::counts(JNIEnv* jni) const {
  std::array<std::int64_t, 4> out{};
  const LocalFrame frame(jni, 4);
  if (!frame) return out;
  const auto array = static_cast<jlongArray>(jni->CallStaticObjectMethod(transformer_, counts_));
  if (failed(jni) || array == nullptr || jni->GetArrayLength(array) != 4) return out;
  static_assert(sizeof(jlong) == sizeof(std::int64_t));
  jni->GetLongArrayRegion(array, 0, 4, reinterpret_cast<jlong*>(out.data()));
  return out;
}

std::int64_t JavaSide::picos_per_call(JNIEnv* jni) const {
  const jlong picos = jni->CallStaticLongMethod(calibration_, picos_);
  return failed(jni) ? 0 : picos;
}

std::int64_t JavaSide::nanos_since_first_call(JNIEnv* jni) const {
  const jlong nanos = jni->CallStaticLongMethod(registry_, since_first_call_);
  return failed(jni) ? -1 : nanos;
}

}  // namespace bn::agent
