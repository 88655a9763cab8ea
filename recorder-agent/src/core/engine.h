#pragma once
// One recording engine of the agent (async-profiler's Engine): what a recording mode records.
// A recording (recording.h) runs one or more engines at once, each adding metrics of its own to
// one shared profile; `mode=NAME` picks its engine from the table in engine_factory.cpp. The
// engine declares what it needs from the JVM (needs(): capabilities, and the events it wants);
// the recording merges its engines' needs, and agent.cpp does the JVMTI side of them: it adds
// the capabilities, tells the engines which optional ones were granted, keeps the one callback
// table, enables only the events some engine asked for and forwards each to the engines that
// asked, and starts and stops every engine at VMInit (or attach) and VMDeath. An engine writes
// through its part of the recording's ProfileSink (profile_sink.h): the metrics it declared (its
// EngineKind row) in the shared FrameTree, plus chunks of its own. An engine records once; a
// later attach to the same JVM gets a new recording (agent.cpp), so an engine whose recording
// has ended gives back its memory but never stops answering the hooks.
//
// Adding an engine: a subclass in a folder of its own (built from an EngineSetup; needs(),
// start(), stop() and the hooks it wants), its row in engine_factory.cpp, its sources in
// recorder-agent/CMakeLists.txt and its mode in docs/recorder.md. agent.cpp and recording.cpp
// change only for an event no engine has asked for before: a hook below and its forwarders there.
//
// No method may throw: every one runs inside Agent_OnLoad or a JVMTI callback.

#include <jvmti.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "bn/agent/status.h"

namespace bn::agent {

// An empty capability set with every bit zero, reserved ones included. `jvmtiCapabilities c{}`
// zeroes only the named bit-fields: jvmti.h pads the struct with unnamed ones, which clang leaves
// as they were, and the JVM refuses a set with any reserved bit on (JVMTI_ERROR_NOT_AVAILABLE).
inline jvmtiCapabilities no_capabilities() {
  jvmtiCapabilities none;
  std::memset(&none, 0, sizeof none);
  return none;
}

struct Options;
class ProfileSink;
class Recording;

// What an engine is built from, in Agent_OnLoad/OnAttach.
struct EngineSetup {
  JavaVM* vm;
  jvmtiEnv* jvmti;
  const Options& options;  // valid only during the call: an engine copies what it keeps
  bool attached;           // Agent_OnAttach: the VM is live and start() follows at once
  // The recording's sink, shared by its engines, and this engine's part of it: its index among
  // the recording's engines, which names its metrics and chunks there (SinkPart).
  ProfileSink& sink;
  std::size_t part;
  // The recording, which turns the engine's events off once no engine of it wants them
  // (turn_events_off); null for an engine built outside one.
  Recording* recording;
};

class Engine {
 public:
  struct Needs {
    // Added first, with the other engines' of the recording, in one call: if the JVM cannot
    // grant them all, the agent does not start the recording (the program runs unprofiled, or
    // stops with strict=true).
    jvmtiCapabilities required = no_capabilities();
    // Then each group in one call, granted whole or not at all; granted() says which were.
    std::vector<jvmtiCapabilities> optional;
    // Events to enable and forward to the hooks below. VMInit and VMDeath are not listed:
    // they start and stop every engine, so the agent always enables them. ClassLoad and
    // CompiledMethodLoad have no hook: an engine enables them only for what their being
    // enabled makes HotSpot do (agent.cpp says what), and their callbacks do nothing.
    std::vector<jvmtiEvent> events;
  };

  explicit Engine(const EngineSetup& setup) : recording_(setup.recording), part_(setup.part) {}
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  virtual ~Engine() = default;

  // Asked once, in Agent_OnLoad/OnAttach, before any capability is added.
  virtual Needs needs() const = 0;
  // The capabilities the JVMTI environment holds once the agent added the required ones and
  // the optional groups the JVM granted. Before any event.
  virtual void granted(const jvmtiCapabilities& /*possessed*/) {}
  // The VM is live (VMInit on the main thread, or Agent_OnAttach): begin recording.
  virtual Status start(JNIEnv* jni) = 0;
  // VMDeath or Agent_OnUnload: stop and join every agent thread, then complete its part of the
  // profile (the file is complete once every engine of the recording has). Idempotent.
  virtual void stop() = 0;
  // A user's `stop` (an attach) while the VM lives: end the recording now, complete the profile,
  // and leave the program as it was before the recording. Returns once its part is complete.
  virtual void end_recording() { stop(); }
  // From a successful start() until the profile is complete (duration= over, or stop()). A new
  // recording in the same JVM (a later attach) starts only once this is false (agent.cpp).
  virtual bool recording() const = 0;

  // Forwarded events, each only if needs().events lists it; they run on the thread concerned
  // and may come before start() (e.g. ThreadStart between Agent_OnLoad and VMInit).
  virtual void thread_started(JNIEnv* /*jni*/, jthread /*thread*/) {}
  virtual void thread_ended(JNIEnv* /*jni*/, jthread /*thread*/) {}
  virtual void class_prepared(JNIEnv* /*jni*/, jthread /*thread*/, jclass /*klass*/) {}
  // The monitor events: a `synchronized` about to wait for its monitor and having got it, and
  // Object.wait about to wait and done (`timed_out`: its timeout ended it).
  virtual void monitor_contended_enter(JNIEnv* /*jni*/, jthread /*thread*/) {}
  virtual void monitor_contended_entered(JNIEnv* /*jni*/, jthread /*thread*/) {}
  virtual void monitor_wait(JNIEnv* /*jni*/, jthread /*thread*/) {}
  virtual void monitor_waited(JNIEnv* /*jni*/, jthread /*thread*/, bool /*timed_out*/) {}
  // NativeMethodBind: native `method` is being bound to `address`. Any phase: in the primordial
  // phase `jni` is null and the method cannot be named yet.
  virtual void native_method_bound(JNIEnv* /*jni*/, jmethodID /*method*/, void* /*address*/) {}
  // ClassFileLoadHook (a class being loaded, or retransformed: then `being_redefined` is set):
  // to replace the class, set *new_data to bytes from jvmti->Allocate and *new_length to their
  // length; leave both alone to keep it. Of several engines, each is given the bytes the one
  // before it left (Recording::class_file_loaded), as the JVM chains several agents.
  virtual void class_file_loaded(JNIEnv* /*jni*/, jclass /*being_redefined*/, jobject /*loader*/, const char* /*name*/,
                                 jint /*length*/, const unsigned char* /*data*/, jint* /*new_length*/,
                                 unsigned char** /*new_data*/) {}

 protected:
  // For an engine's own thread once its recording has ended, before recording() turns false: the
  // events it asked for off, unless another engine of its recording still records them, so the
  // JVM runs on as it did before the recording (CompiledMethodLoad, for one, keeps the JIT
  // compilers recording debug information at every instruction). The next recording turns on its
  // own (agent.cpp). Defined in recording.cpp.
  void turn_events_off() const;

 private:
  Recording* recording_;
  std::size_t part_;
};

}  // namespace bn::agent
