#pragma once
// One recording: the engines that run together in it and the profile they share. As
// async-profiler runs its CPU, allocation and lock engines at once into one profile, a recording
// holds a list of engines (engine.h), each adding metrics of its own to one ProfileSink
// (profile_sink.h): the capabilities it asks of the JVM are the union of its engines' needs();
// each event goes to every engine that asked for it; start, stop and end_recording go to all;
// the file is complete once every engine has finished its part. `mode=causal`
// records with two: the sampler's, then the causal experiments' (engine_factory.h, companions).
//
// agent.cpp does the JVMTI side (capabilities, the callback table) for the recording as it would
// for one engine. No method throws but the constructor (std::bad_alloc).

#include <jvmti.h>

#include <bitset>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "bn/agent/status.h"
#include "core/engine.h"
#include "core/engine_factory.h"
#include "core/profile_sink.h"

namespace bn::agent {

struct Options;

class Recording {
 public:
  // One engine per kind, in this order, sharing one ProfileSink on options.file: each kind's
  // metrics follow those of the kinds before it; a metric whose name an earlier kind took is
  // named "MODE.NAME". Throws std::bad_alloc. `jvmti` may be null (tests): then no event is
  // ever turned off.
  Recording(std::span<const EngineKind* const> kinds, JavaVM* vm, jvmtiEnv* jvmti, const Options& options,
            bool attached);
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;
  ~Recording();

  // What the engines need together: every engine's required capabilities in one set (the JVM
  // grants them all or the recording does not start), each engine's optional groups, and each
  // event any engine wants, once.
  const Engine::Needs& needs() const { return needs_; }
  // The capabilities the environment holds, told to every engine.
  void granted(const jvmtiCapabilities& possessed);
  // Starts every engine, in order. If one fails, the engines started before it end their
  // recordings, and the file completes with their parts; the error names the failed engine's
  // mode when there are several.
  Status start(JNIEnv* jni);
  void stop();
  void end_recording();
  // Whether any engine still records.
  bool recording() const;
  // The file= all engines write.
  const std::string& file() const { return file_; }

  // Forwarded to each engine whose needs() listed the event.
  void thread_started(JNIEnv* jni, jthread thread);
  void thread_ended(JNIEnv* jni, jthread thread);
  void class_prepared(JNIEnv* jni, jthread thread, jclass klass);
  void monitor_contended_enter(JNIEnv* jni, jthread thread);
  void monitor_contended_entered(JNIEnv* jni, jthread thread);
  void monitor_wait(JNIEnv* jni, jthread thread);
  void monitor_waited(JNIEnv* jni, jthread thread, bool timed_out);
  void native_method_bound(JNIEnv* jni, jmethodID method, void* address);
  // Each engine that wants it gets the class bytes the engine before it left, as the JVM
  // chains the hooks of several agents; a replacement replaced again is deallocated.
  void class_file_loaded(JNIEnv* jni, jclass being_redefined, jobject loader, const char* name, jint length,
                         const unsigned char* data, jint* new_length, unsigned char** new_data);

  // Engine `part`'s recording has ended (Engine::turn_events_off): its events go off, but for
  // those another engine still recording wants.
  void release_events(std::size_t part);

  std::size_t engine_count() const { return engines_.size(); }
  Engine& engine(std::size_t i) { return *engines_[i]; }
  ProfileSink& sink() { return *sink_; }

 private:
  // JVMTI event numbers are below JVMTI_MAX_EVENT_TYPE_VAL + 1.
  using EventSet = std::bitset<JVMTI_MAX_EVENT_TYPE_VAL + 1>;
  template <class Hook>
  void forward(jvmtiEvent event, Hook hook);

  jvmtiEnv* jvmti_;
  std::string file_;
  std::vector<std::string> modes_;  // each engine's mode=
  std::unique_ptr<ProfileSink> sink_;
  std::vector<std::unique_ptr<Engine>> engines_;
  std::vector<std::vector<jvmtiEvent>> events_;  // each engine's, as its needs() listed them
  std::vector<EventSet> wants_;                  // the same, for forwarding
  Engine::Needs needs_;
  std::mutex released_mutex_;
  std::vector<bool> released_;  // guarded by released_mutex_: turn_events_off was called
};

}  // namespace bn::agent
