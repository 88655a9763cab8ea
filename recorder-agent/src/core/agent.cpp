#include "core/agent.h"

#include <jvmti.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/attach_refusal.h"
#include "core/engine.h"
#include "core/engine_factory.h"
#include "core/options.h"
#include "core/report.h"

namespace bn::agent {
namespace {

// The agent's one JVMTI environment, made by the first load: a second one would have the same
// callbacks, and every event would reach the engine twice.
jvmtiEnv* g_jvmti = nullptr;
// The engine of the current recording, or of the last one. Engines are never freed: JVMTI
// callbacks may still be in flight on other threads after VMDeath, or after a newer recording's
// engine took over, and a freed engine would turn them into crashes (engine.h: an ended engine
// gives back its tree). The rest is touched only in load(), which the JVM never runs twice at
// once (Agent_OnLoad at start-up; the attach listener runs one Agent_OnAttach at a time).
std::atomic<Engine*> g_engine{nullptr};
std::string g_file;                // the file= of g_engine's recording, for a refusal
std::vector<jvmtiEvent> g_events;  // enabled for g_engine, besides VMInit and VMDeath

Engine* engine() { return g_engine.load(std::memory_order_acquire); }

void start_engine(JNIEnv* jni) {
  if (Engine* e = engine(); e != nullptr) {
    if (Status s = e->start(jni); !s.ok()) report(s.message() + "; the program runs without profiling");
  }
}

// The one callback table: VMInit and VMDeath start and stop the engine; every other event
// reaches the engine only if it asked for it (Engine::Needs::events).
void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* jni, jthread) { start_engine(jni); }

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  if (Engine* e = engine(); e != nullptr) e->stop();
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (Engine* e = engine(); e != nullptr) e->thread_started(jni, thread);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (Engine* e = engine(); e != nullptr) e->thread_ended(jni, thread);
}

void JNICALL on_class_prepare(jvmtiEnv*, JNIEnv* jni, jthread thread, jclass klass) {
  if (Engine* e = engine(); e != nullptr) e->class_prepared(jni, thread, klass);
}

void JNICALL on_class_file_load_hook(jvmtiEnv*, JNIEnv* jni, jclass being_redefined, jobject loader, const char* name,
                                     jobject, jint length, const unsigned char* data, jint* new_length,
                                     unsigned char** new_data) {
  if (Engine* e = engine(); e != nullptr)
    e->class_file_loaded(jni, being_redefined, loader, name, length, data, new_length, new_data);
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
  return c;
}

// Adds the engine's capabilities: the required ones all at once, or an error; then each
// optional group, whole or not at all. Tells the engine what the environment now holds.
Status add_capabilities(jvmtiEnv* jvmti, Engine& engine, const Engine::Needs& needs, const std::string& mode) {
  if (const jvmtiError e = jvmti->AddCapabilities(&needs.required); e != JVMTI_ERROR_NONE)
    return Status::error("this JVM cannot grant the JVMTI capabilities mode=" + mode + " needs (error " +
                         std::to_string(e) + ")");
  // A refused group is the engine's business: granted() tells it what it holds.
  for (const jvmtiCapabilities& group : needs.optional) jvmti->AddCapabilities(&group);
  jvmtiCapabilities possessed = no_capabilities();
  jvmti->GetCapabilities(&possessed);
  engine.granted(possessed);
  return Status();
}

// Enables the events the new engine asks for, then disables those only the engine before it had.
void switch_events(const std::vector<jvmtiEvent>& next) {
  for (const jvmtiEvent event : next) g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, event, nullptr);
  for (const jvmtiEvent event : g_events)
    if (std::find(next.begin(), next.end(), event) == next.end())
      g_jvmti->SetEventNotificationMode(JVMTI_DISABLE, event, nullptr);
  g_events = next;
}

// Why a new recording cannot start in this JVM now; empty if it can.
std::string busy_reason() {
  if (Engine* e = engine(); e != nullptr && e->recording())
    return "a recording is in progress in this JVM (file=" + g_file + "); a new one can start when it ends";
  return "";
}

// `stop` (an attach): ends the recording in progress, the one writing file= if that is given,
// and returns once its profile is complete; the program runs on (bottlenecks record --pid sends
// it on Ctrl-C).
template <class Refuse>
jint stop_recording(const Options& options, bool attached, const Refuse& refused) {
  if (!attached) return refused("option stop ends a recording in progress: give it to jcmd JVMTI.agent_load", "");
  Engine* e = engine();
  if (e == nullptr || !e->recording()) return refused("no recording in progress in this JVM", "");
  if (options.file_given && options.file != g_file)
    return refused("the recording in progress writes " + g_file + ", not " + options.file, "");
  e->end_recording();
  return JNI_OK;
}

}  // namespace

jint load(JavaVM* vm, const char* text, bool attached) {
  const ParsedOptions parsed = parse_options(text, engine_kinds());
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
  std::unique_ptr<Engine> created;
  Engine::Needs needs;
  try {
    created = kind->create(EngineSetup{vm, g_jvmti, parsed.options, attached});
    needs = created->needs();
  } catch (const std::exception&) {
    return refused("out of memory", without);
  }
  if (Status s = add_capabilities(g_jvmti, *created, needs, parsed.options.mode); !s.ok()) {
    return refused(s.message(), without);
  }
  try {
    g_file = parsed.options.file;
  } catch (const std::exception&) {
    return refused("out of memory", without);
  }
  g_engine.store(created.release(), std::memory_order_release);  // the engine before it has ended
  switch_events(needs.events);
  if (!attached) {
    g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, nullptr);
    return JNI_OK;
  }
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) {
    return refused("cannot reach JNI from the attach thread", without);
  }
  if (Status s = engine()->start(jni); !s.ok()) return refused(s.message(), without);
  return JNI_OK;
}

void unload() {
  if (Engine* e = engine(); e != nullptr) e->stop();
}

}  // namespace bn::agent
