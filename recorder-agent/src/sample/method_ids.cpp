#include "sample/method_ids.h"

#include "core/os_thread.h"

namespace bn::agent {

void MethodIds::create(jvmtiEnv* jvmti, jclass klass) {
  if (methods_.load(std::memory_order_relaxed) >= kMaxMethods) {
    skipped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  jint count = 0;
  jmethodID* ids = nullptr;
  // The ids are created as a side effect; the array itself is not needed.
  if (jvmti->GetClassMethods(klass, &count, &ids) != JVMTI_ERROR_NONE) return;  // not prepared, or gone
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(ids));
  methods_.fetch_add(static_cast<std::uint64_t>(count), std::memory_order_relaxed);
  classes_.fetch_add(1, std::memory_order_relaxed);
}

void MethodIds::class_prepared(jvmtiEnv* jvmti, jclass klass) {
  const std::int64_t before = thread_cpu_ns();
  create(jvmti, klass);
  cpu_ns_.fetch_add(thread_cpu_ns() - before, std::memory_order_relaxed);
}

void MethodIds::all_loaded(jvmtiEnv* jvmti, JNIEnv* jni) {
  const std::int64_t before = thread_cpu_ns();
  jint count = 0;
  jclass* classes = nullptr;
  if (jvmti->GetLoadedClasses(&count, &classes) != JVMTI_ERROR_NONE) return;
  // A local reference per class: tens of thousands in a large program, so each goes at once.
  for (jint i = 0; i < count; ++i) {
    create(jvmti, classes[i]);
    jni->DeleteLocalRef(classes[i]);
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(classes));
  cpu_ns_.fetch_add(thread_cpu_ns() - before, std::memory_order_relaxed);
}

}  // namespace bn::agent
