#include "core/attach_refusal.h"

namespace bn::agent {

void leave_refusal(JavaVM* vm, const std::string& reason) {
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK || jni == nullptr) return;
  std::string text = reason;
  for (char& c : text)
    if (c < 0x20 || c > 0x7e) c = '?';
  const jclass system = jni->FindClass("java/lang/System");
  const jmethodID set =
      system == nullptr
          ? nullptr
          : jni->GetStaticMethodID(system, "setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
  const jstring key = set == nullptr ? nullptr : jni->NewStringUTF(kRefusalProperty);
  const jstring value = key == nullptr ? nullptr : jni->NewStringUTF(text.c_str());
  const jobject previous = value == nullptr ? nullptr : jni->CallStaticObjectMethod(system, set, key, value);
  if (jni->ExceptionCheck()) jni->ExceptionClear();  // a SecurityManager may refuse: the reason stays on stderr
  if (previous != nullptr) jni->DeleteLocalRef(previous);
  if (value != nullptr) jni->DeleteLocalRef(value);
  if (key != nullptr) jni->DeleteLocalRef(key);
  if (system != nullptr) jni->DeleteLocalRef(system);
}

}  // namespace bn::agent
