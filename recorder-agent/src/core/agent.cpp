#include "core/agent.h"

#include <jvmti.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "bn/agent/options.h"
#include "core/attach_refusal.h"
#include "core/engine.h"
#include "core/engine_factory.h"
#include "core/recording.h"
#include "core/report.h"

namespace bn::agent {
namespace {

// The agent's one JVMTI environment, made by the first load: a second one would have the same
// callbacks, and every event would reach the engines twice.
jvmtiEnv* g_jvmti = nullptr;
// The current recording, or the last one. Recordings and their engines are never freed: JVMTI
// callbacks may still be in flight on other threads after VMDeath, or after a newer recording
// took over, and a freed engine would turn them into crashes (engine.h: an ended engine gives
// back its memory). The rest is touched only in load(), which the JVM never runs twice at once
// (Agent_OnLoad at start-up; the attach listener runs one Agent_OnAttach at a time).
std::atomic<Recording*> g_recording{nullptr};
std::vector<jvmtiEvent> g_events;  // enabled for g_recording, besides VMInit and VMDeath

Recording* recording() { return g_recording.load(std::memory_order_acquire); }

void start_recording(JNIEnv* jni) {
  if (Recording* r = recording(); r != nullptr) {
    if (Status s = r->start(jni); !s.ok()) report(s.message() + "; the program runs without profiling");
  }
}

// The one callback table: VMInit and VMDeath start and stop the recording's engines; every other
// event reaches the engines that asked for it (Engine::Needs::events, Recording's forwarders).
void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* jni, jthread) { start_recording(jni); }

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  if (Recording* r = recording(); r != nullptr) r->stop();
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (Recording* r = recording(); r != nullptr) r->thread_started(jni, thread);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (Recording* r = recording(); r != nullptr) r->thread_ended(jni, thread);
}

void JNICALL on_class_prepare(jvmtiEnv*, JNIEnv* jni, jthread thread, jclass klass) {
  if (Recording* r = recording(); r != nullptr) r->class_prepared(jni, thread, klass);
}

void JNICALL on_class_file_load_hook(jvmtiEnv*, JNIEnv* jni, jclass being_redefined, jobject loader, const char* name,
                                     jobject, jint length, const unsigned char* data, jint* new_length,
                                     unsigned char** new_data) {
  if (Recording* r = recording(); r != nullptr)
    r->class_file_loaded(jni, being_redefined, loader, name, length, data, new_length, new_data);
}

void JNICALL on_monitor_contended_enter(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject) {
  if (Recording* r = recording(); r != nullptr) r->monitor_contended_enter(jni, thread);
}

void JNICALL on_monitor_contended_entered(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject) {
  if (Recording* r = recording(); r != nullptr) r->monitor_contended_entered(jni, thread);
}

void JNICALL on_monitor_wait(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject, jlong) {
  if (Recording* r = recording(); r != nullptr) r->monitor_wait(jni, thread);
}

void JNICALL on_monitor_waited(jvmtiEnv*, JNIEnv* jni, jthread thread, jobject, jboolean timed_out) {
  if (Recording* r = recording(); r != nullptr) r->monitor_waited(jni, thread, timed_out != JNI_FALSE);
}

void JNICALL on_native_method_bind(jvmtiEnv*, JNIEnv* jni, jthread, jmethodID method, void* address, void**) {
  if (Recording* r = recording(); r != nullptr) r->native_method_bound(jni, method, address);
}

// Enabled only for their effect on HotSpot, never forwarded:
// - ClassLoad: AsyncGetCallTrace refuses to walk unless some agent receives it (forte.cpp,
//   ticks_no_class_load), a precondition meant for agents that create jmethodIDs at class
//   load; HotSpot creates none itself (method_ids.h does that).
// - CompiledMethodLoad: while any agent receives it, the JIT compilers record debug information
//   at every instruction range, not only at safepoints (DebugNonSafepoints takes that default,
//   debugInfoRec.cpp: compute_recording_non_safepoints), so AsyncGetCallTrace can name the
//   method, inlined ones included, at the exact instruction a signal interrupted.
void JNICALL on_class_load(jvmtiEnv*, JNIEnv*, jthread, jclass) {}
void JNICALL on_compiled_method_load(jvmtiEnv*, jmethodID, jint, const void*, jint, const jvmtiAddrLocationMap*,
                                     const void*) {}

jvmtiEventCallbacks callbacks() {
  jvmtiEventCallbacks c{};
  c.VMInit = on_vm_init;
  c.VMDeath = on_vm_death;
  c.ThreadStart = on_thread_start;
  c.ThreadEnd = on_thread_end;
  c.ClassLoad = on_class_load;
  c.ClassPrepare = on_class_prepare;
  c.ClassFileLoadHook = on_class_file_load_hook;
  c.CompiledMethodLoad = on_compiled_method_load;
  c.MonitorContendedEnter = on_monitor_contended_enter;
  c.MonitorContendedEntered = on_monitor_contended_entered;
  c.MonitorWait = on_monitor_wait;
  c.MonitorWaited = on_monitor_waited;
  c.NativeMethodBind = on_native_method_bind;
  return c;
}

// Adds the recording's capabilities: the required ones all at once, or an error; then each
// optional group, whole or not at all. Tells the engines what the environment now holds.
Status add_capabilities(jvmtiEnv* jvmti, Recording& recording, const Engine::Needs& needs, const std::string& mode) {
  if (const jvmtiError e = jvmti->AddCapabilities(&needs.required); e != JVMTI_ERROR_NONE)
    return Status::error("this JVM cannot grant the JVMTI capabilities mode=" + mode + " needs (error " +
                         std::to_string(e) + ")");
  // A refused group is its engine's business: granted() tells it what it holds.
  for (const jvmtiCapabilities& group : needs.optional) jvmti->AddCapabilities(&group);
  jvmtiCapabilities possessed = no_capabilities();
  jvmti->GetCapabilities(&possessed);
  recording.granted(possessed);
  return Status();
}

// Enables the events the new recording asks for, then disables those only the one before it had.
void switch_events(const std::vector<jvmtiEvent>& next) {
  for (const jvmtiEvent event : next) g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, event, nullptr);
  for (const jvmtiEvent event : g_events)
    if (std::find(next.begin(), next.end(), event) == next.end())
      g_jvmti->SetEventNotificationMode(JVMTI_DISABLE, event, nullptr);
  g_events = next;
}

// Why a new recording cannot start in this JVM now; empty if it can.
std::string busy_reason() {
  if (Recording* r = recording(); r != nullptr && r->recording())
    return "a recording is in progress in this JVM (file=" + r->file() + "); a new one can start when it ends";
  return "";
}

// `stop` (an attach): ends the recording in progress, the one writing file= if that is given,
// and returns once its profile is complete; the program runs on (bottlenecks record --pid sends
// it on Ctrl-C).
template <class Refuse>
jint stop_recording(const Options& options, bool attached, const Refuse& refused) {
  if (!attached) return refused("option stop ends a recording in progress: give it to jcmd JVMTI.agent_load", "");
  Recording* r = recording();
  if (r == nullptr || !r->recording()) return refused("no recording in progress in this JVM", "");
  if (options.file_given && options.file != r->file())
    return refused("the recording in progress writes " + r->file() + ", not " + options.file, "");
  r->end_recording();
  return JNI_OK;
}

}  // namespace

jint load(JavaVM* vm, const char* text, bool attached) {
  const ParsedOptions parsed = parse_options(text);
  // What a failure returns. At start-up an error stops the JVM, which only `strict` asks for;
  // attached (jcmd JVMTI.agent_load) it stops nothing and is the one answer the attaching tool
  // sees ("return code: -1"), so the reason is left where it can read it too.
  const auto refused = [&](const std::string& reason, const char* outcome) {
    report(reason + outcome);
    if (attached) leave_refusal(vm, reason);
    return parsed.options.strict || attached ? JNI_ERR : JNI_OK;
  };
  const char* const without = "; the program runs without profiling";
  if (!parsed.status.ok())
    return refused(parsed.status.message(), attached                ? "; not loaded"
                                            : parsed.options.strict ? "; stopping the JVM (strict=true)"
                                                                    : without);
  if (parsed.options.stop) return stop_recording(parsed.options, attached, refused);
  const EngineKind* kind = find_engine_kind(engine_kinds(), parsed.options.mode);
  if (kind == nullptr) return refused("mode=" + parsed.options.mode + " has no engine", without);
  if (g_jvmti != nullptr && !attached) {  // a second -agentpath: the first one records
    report("already loaded; ignoring the second load");
    return JNI_OK;
  }
  if (g_jvmti != nullptr) {  // a later attach: a new recording, once the one before has ended
    if (const std::string busy = busy_reason(); !busy.empty()) return refused(busy, "; not started");
  } else if (vm->GetEnv(reinterpret_cast<void**>(&g_jvmti), JVMTI_VERSION_11) != JNI_OK || g_jvmti == nullptr) {
    g_jvmti = nullptr;
    return refused("this JVM offers no JVMTI 11 environment", without);
  } else {
    const jvmtiEventCallbacks table = callbacks();
    g_jvmti->SetEventCallbacks(&table, sizeof table);
    g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, nullptr);
  }
  // mode= names one engine, which may bring companions (EngineKind::companions) before it.
  std::vector<const EngineKind*> kinds;
  for (const std::string_view companion : kind->companions)
    if (const EngineKind* k = find_engine_kind(engine_kinds(), companion); k != nullptr) kinds.push_back(k);
  kinds.push_back(kind);
  std::unique_ptr<Recording> created;
  try {
    created = std::make_unique<Recording>(kinds, vm, g_jvmti, parsed.options, attached);
  } catch (const std::exception&) {
    return refused("out of memory", without);
  }
  const Engine::Needs& needs = created->needs();
  if (Status s = add_capabilities(g_jvmti, *created, needs, parsed.options.mode); !s.ok()) {
    return refused(s.message(), without);
  }
  Recording* const current = created.release();
  g_recording.store(current, std::memory_order_release);  // the recording before it has ended
  switch_events(current->needs().events);
  if (!attached) {
    g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, nullptr);
    return JNI_OK;
  }
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) {
    return refused("cannot reach JNI from the attach thread", without);
  }
  if (Status s = current->start(jni); !s.ok()) return refused(s.message(), without);
  return JNI_OK;
}

void unload() {
  if (Recording* r = recording(); r != nullptr) r->stop();
}

}  // namespace bn::agent
