#include "agent.h"

#include <jvmti.h>

#include <exception>
#include <memory>
#include <string>

#include "attach_refusal.h"
#include "engine.h"
#include "engine_factory.h"
#include "options.h"
#include "report.h"

namespace bn::agent {
namespace {

// Created once and never freed: JVMTI callbacks may still be in flight on other threads after
// VMDeath, and a freed engine would turn them into crashes.
Engine* g_engine = nullptr;
bool g_loaded = false;

void start_engine(JNIEnv* jni) {
  if (g_engine == nullptr) return;
  if (Status s = g_engine->start(jni); !s.ok()) report(s.message() + "; the program runs without profiling");
}

// The one callback table: VMInit and VMDeath start and stop the engine; every other event
// reaches the engine only if it asked for it (Engine::Needs::events).
void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* jni, jthread) { start_engine(jni); }

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  if (g_engine != nullptr) g_engine->stop();
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (g_engine != nullptr) g_engine->thread_started(jni, thread);
}

void JNICALL on_thread_end(jvmtiEnv*, JNIEnv* jni, jthread thread) {
  if (g_engine != nullptr) g_engine->thread_ended(jni, thread);
}

void JNICALL on_class_prepare(jvmtiEnv*, JNIEnv* jni, jthread thread, jclass klass) {
  if (g_engine != nullptr) g_engine->class_prepared(jni, thread, klass);
}

void JNICALL on_class_file_load_hook(jvmtiEnv*, JNIEnv* jni, jclass being_redefined, jobject loader, const char* name,
                                     jobject, jint length, const unsigned char* data, jint* new_length,
                                     unsigned char** new_data) {
  if (g_engine != nullptr)
    g_engine->class_file_loaded(jni, being_redefined, loader, name, length, data, new_length, new_data);
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
  if (g_loaded && !attached) {  // a second -agentpath: the first one records
    report("already loaded; ignoring the second load");
    return JNI_OK;
  }
  if (g_loaded) return refused("already loaded in this JVM (one recording per JVM)", "; the second load is refused");
  jvmtiEnv* jvmti = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_11) != JNI_OK || jvmti == nullptr) {
    return refused("this JVM offers no JVMTI 11 environment", without);
  }
  std::unique_ptr<Engine> engine;
  Engine::Needs needs;
  try {
    engine = create_engine(EngineSetup{vm, jvmti, parsed.options, attached});
    if (engine != nullptr) needs = engine->needs();
  } catch (const std::exception&) {
    report("out of memory; the program runs without profiling");
    return JNI_OK;
  }
  if (engine == nullptr) {
    return refused("mode=" + parsed.options.mode + " has no engine", without);
  }
  if (Status s = add_capabilities(jvmti, *engine, needs, parsed.options.mode); !s.ok()) {
    return refused(s.message(), without);
  }
  const jvmtiEventCallbacks table = callbacks();
  jvmti->SetEventCallbacks(&table, sizeof table);
  g_engine = engine.release();
  g_loaded = true;
  for (const jvmtiEvent event : needs.events) jvmti->SetEventNotificationMode(JVMTI_ENABLE, event, nullptr);
  jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, nullptr);
  if (!attached) {
    jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, nullptr);
    return JNI_OK;
  }
  JNIEnv* jni = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jni), JNI_VERSION_1_8) != JNI_OK) {
    report("cannot reach JNI from the attach thread; the program runs without profiling");
    return JNI_OK;
  }
  start_engine(jni);
  return JNI_OK;
}

void unload() {
  if (g_engine != nullptr) g_engine->stop();
}

}  // namespace bn::agent
