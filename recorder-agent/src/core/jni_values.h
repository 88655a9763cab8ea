#pragma once
// Small conversions between what JNI/JVMTI hand out and what the agent keeps, shared by the
// engines: global class references, the references and memory a jvmtiThreadInfo holds, and
// class-file bytes to and from the Java side's transformers (ClassFileLoadHook gives C bytes
// and takes JVMTI-allocated ones; a transformer takes and gives a byte[]).

#include <jvmti.h>

#include "core/jni_failed.h"

namespace bn::agent {

// A global reference to `local` (null stays null).
inline jclass global_class(JNIEnv* jni, jclass local) {
  return local == nullptr ? nullptr : static_cast<jclass>(jni->NewGlobalRef(local));
}

// Frees what GetThreadInfo allocated: the name and two local references.
inline void release_thread_info(jvmtiEnv* jvmti, JNIEnv* jni, jvmtiThreadInfo& info) {
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(info.name));
  if (info.thread_group != nullptr) jni->DeleteLocalRef(info.thread_group);
  if (info.context_class_loader != nullptr) jni->DeleteLocalRef(info.context_class_loader);
  info = {};
}

// A byte[] holding `data` (a local reference), or null if the JVM had no room (cleared).
inline jbyteArray java_bytes(JNIEnv* jni, const unsigned char* data, jint length) {
  const jbyteArray bytes = jni->NewByteArray(length);
  if (failed(jni) || bytes == nullptr) return nullptr;
  jni->SetByteArrayRegion(bytes, 0, length, reinterpret_cast<const jbyte*>(data));
  return failed(jni) ? nullptr : bytes;
}

// A transformer's result as ClassFileLoadHook's replacement: JVMTI-allocated bytes in
// *new_data and their length in *new_length; false (both untouched) if `result` is null or the
// copy failed.
inline bool replace_class_bytes(jvmtiEnv* jvmti, JNIEnv* jni, jbyteArray result, jint* new_length,
                                unsigned char** new_data) {
  if (failed(jni) || result == nullptr) return false;
  const jsize size = jni->GetArrayLength(result);
  unsigned char* out = nullptr;
  if (jvmti->Allocate(size, &out) != JVMTI_ERROR_NONE) return false;
  jni->GetByteArrayRegion(result, 0, size, reinterpret_cast<jbyte*>(out));
  if (failed(jni)) {
    jvmti->Deallocate(out);
    return false;
  }
  *new_length = size;
  *new_data = out;
  return true;
}

}  // namespace bn::agent
