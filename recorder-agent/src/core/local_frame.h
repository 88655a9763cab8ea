#pragma once
// A JNI local frame for the scope of one call that makes local references (naming methods,
// looking up a monitor's owner), so that none outlives the call. The sampler thread runs for
// the whole recording, so references it leaked would pile up until the JVM's handle blocks
// ran out.

#include <jni.h>

namespace bn::agent {

class LocalFrame {
 public:
  // Room for `capacity` local references before the JVM must grow the frame.
  explicit LocalFrame(JNIEnv* jni, jint capacity = 16) : jni_(jni), pushed_(jni->PushLocalFrame(capacity) == 0) {
    if (!pushed_) jni->ExceptionClear();  // out of memory: the caller skips its work
  }
  LocalFrame(const LocalFrame&) = delete;
  LocalFrame& operator=(const LocalFrame&) = delete;
  ~LocalFrame() {
    if (pushed_) jni_->PopLocalFrame(nullptr);
  }
  explicit operator bool() const { return pushed_; }

 private:
  JNIEnv* jni_;
  bool pushed_;
};

}  // namespace bn::agent
