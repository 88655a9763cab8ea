// The JVM's entry points into the agent and nothing else (async-profiler's vmEntry.cpp).

#include <jni.h>

#include "core/agent.h"

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
  return bn::agent::load(vm, options, false);
}

extern "C" JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char* options, void*) {
  return bn::agent::load(vm, options, true);
}

extern "C" JNIEXPORT void JNICALL Agent_OnUnload(JavaVM*) { bn::agent::unload(); }
