#include "agent.h"

#include <jvmti.h>

#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "engine.h"
#include "options.h"
#include "report.h"
#include "sample_engine.h"

namespace bn::agent {
namespace {

// Created once and never freed: JVMTI callbacks may still be in flight on other threads after
// VMDeath, and a freed engine would turn them into crashes.
Engine* g_engine = nullptr;
bool g_loaded = false;

void start_engine(JNIEnv* jni, bool attached) {
  if (g_engine == nullptr) return;
  if (Status s = g_engine->start(jni, attached); !s.ok()) report(s.message() + "; the program runs without profiling");
}

void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* jni, jthread) { start_engine(jni, false); }

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  if (g_engine != nullptr) g_engine->stop();
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (g_engine != nullptr) g_engine->thread_started(jni, thread);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (g_engine != nullptr) g_engine->thread_ended(jni, thread);
}

// Enabled only because AsyncGetCallTrace refuses to walk a stack unless some agent receives
// ClassLoad events (forte.cpp: ticks_no_class_load); there is nothing to do here.
void JNICALL on_class_load(jvmtiEnv*, JNIEnv*, jthread, jclass) {}

// Adds one capability; false if this JVM (or this phase, when attaching) cannot grant it.
bool add_capability(jvmtiEnv* jvmti, void (*set)(jvmtiCapabilities&)) {
  jvmtiCapabilities caps;
  std::memset(&caps, 0, sizeof caps);
  set(caps);
  return jvmti->AddCapabilities(&caps) == JVMTI_ERROR_NONE;
}

}  // namespace

jint load(JavaVM* vm, const char* text, bool attached) {
  const ParsedOptions parsed = parse_options(text);
  if (!parsed.status.ok()) {
    report(parsed.status.message() +
           (parsed.options.strict ? "; stopping the JVM (strict=true)" : "; the program runs without profiling"));
    return parsed.options.strict ? JNI_ERR : JNI_OK;
  }
  if (g_loaded) {
    report("already loaded; ignoring the second load");
    return JNI_OK;
  }
  jvmtiEnv* jvmti = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_11) != JNI_OK || jvmti == nullptr) {
    report("this JVM offers no JVMTI 11 environment; the program runs without profiling");
    return parsed.options.strict ? JNI_ERR : JNI_OK;
  }
  // Both are needed only to name the owner of a contended monitor; without them the profile
  // still has every stack and state.
  const bool owners = add_capability(jvmti, [](jvmtiCapabilities& c) { c.can_get_current_contended_monitor = 1; }) &&
                      add_capability(jvmti, [](jvmtiCapabilities& c) { c.can_get_monitor_info = 1; });
  // JDK 17 grants can_get_current_contended_monitor only in the OnLoad phase.
  if (!owners)
    report(std::string("cannot name the owners of contended monitors") +
           (attached ? " when attached (load the agent with -agentpath for that)" : "") +
           "; recording stacks and states");

  jvmtiEventCallbacks callbacks;
  std::memset(&callbacks, 0, sizeof callbacks);
  callbacks.VMInit = on_vm_init;
  callbacks.VMDeath = on_vm_death;
  callbacks.ThreadStart = on_thread_start;
  callbacks.ThreadEnd = on_thread_end;
  callbacks.ClassLoad = on_class_load;
  jvmti->SetEventCallbacks(&callbacks, sizeof callbacks);
  try {
    g_engine = new SampleEngine(vm, jvmti, parsed.options, owners);
  } catch (const std::exception&) {
    report("out of memory; the program runs without profiling");
    return JNI_OK;
  }
  g_loaded = true;
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, nullptr);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, nullptr);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, nullptr);
  if (parsed.options.signal_stacks) jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_CLASS_LOAD, nullptr);
  if (!attached) {
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, nullptr);
    return JNI_OK;
  }
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) {
    report("cannot reach JNI from the attach thread; the program runs without profiling");
    return JNI_OK;
  }
  start_engine(jni, true);
  return JNI_OK;
}

void unload() {
  if (g_engine != nullptr) g_engine->stop();
}

}  // namespace bn::agent
