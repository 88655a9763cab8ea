#include "core/agent_thread.h"

#include <string>

namespace bn::agent {

Status start_agent_thread(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jvmtiStartFunction run, void* arg) {
  jclass thread_class = jni->FindClass("java/lang/Thread");
  jmethodID init =
      thread_class != nullptr ? jni->GetMethodID(thread_class, "<init>", "(Ljava/lang/String;)V") : nullptr;
  jstring java_name = init != nullptr ? jni->NewStringUTF(name) : nullptr;
  jobject thread = java_name != nullptr ? jni->NewObject(thread_class, init, java_name) : nullptr;
  if (jni->ExceptionCheck()) jni->ExceptionClear();
  if (thread == nullptr) return Status::error(std::string("cannot create the thread object of ") + name);
  if (jvmti->RunAgentThread(thread, run, arg, JVMTI_THREAD_MAX_PRIORITY) != JVMTI_ERROR_NONE)
    return Status::error(std::string("cannot start the thread ") + name);
  return Status();
}

}  // namespace bn::agent
