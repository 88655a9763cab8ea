#pragma once
// An agent thread: a java.lang.Thread named `name` that runs `run(jvmti, jni, arg)` in native
// code (RunAgentThread), at the highest Java priority. The engines' loops run on one each.

#include <jvmti.h>

#include "bn/agent/status.h"

namespace bn::agent {

Status start_agent_thread(jvmtiEnv* jvmti, JNIEnv* jni, const char* name, jvmtiStartFunction run, void* arg);

}  // namespace bn::agent
