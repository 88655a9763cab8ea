// The anchor of the call-tree benchmark: the cost of JVMTI MethodEntry/MethodExit
// events, the approach mode=calltree does not take. A minimal agent that receives both events
// for every method on every thread and only counts them (a thread-local counter: the least any
// agent built on these events can do), so what it measures is the JVM's cost of delivering
// them: while they are enabled HotSpot runs every method in the interpreter.
//
//   java -agentpath:build/bench/calltree/libbn_method_events.so ...

#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <cstdio>

namespace {

std::atomic<std::uint64_t> g_events{0};
thread_local std::uint64_t t_events = 0;

void JNICALL on_entry(jvmtiEnv*, JNIEnv*, jthread, jmethodID) { ++t_events; }

void JNICALL on_exit(jvmtiEnv*, JNIEnv*, jthread, jmethodID, jboolean, jvalue) {
  // Flushed per exit that ends a thousand events, so the total is close without an atomic per event.
  if (++t_events % 1024 == 0) g_events.fetch_add(1024, std::memory_order_relaxed);
}

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  std::fprintf(stderr, "method events: about %llu\n", static_cast<unsigned long long>(g_events.load()));
}

}  // namespace

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char*, void*) {
  jvmtiEnv* jvmti = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_11) != JNI_OK) return JNI_ERR;
  jvmtiCapabilities caps{};
  caps.can_generate_method_entry_events = 1;
  caps.can_generate_method_exit_events = 1;
  if (jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) return JNI_ERR;
  jvmtiEventCallbacks callbacks{};
  callbacks.MethodEntry = on_entry;
  callbacks.MethodExit = on_exit;
  callbacks.VMDeath = on_vm_death;
  jvmti->SetEventCallbacks(&callbacks, sizeof callbacks);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, nullptr);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_METHOD_EXIT, nullptr);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, nullptr);
  return JNI_OK;
}
