#pragma once
// The agent's check after a JNI call that may raise: a pending Java exception must never be left
// behind, since agent threads and JVMTI callbacks run on Java threads, and the next JNI call
// (or the program's own code, back from a callback) would see it.

#include <jni.h>

namespace bn::agent {

// Clears a pending exception; true if there was one.
inline bool failed(JNIEnv* jni) {
  if (!jni->ExceptionCheck()) return false;
  jni->ExceptionClear();
  return true;
}

}  // namespace bn::agent
