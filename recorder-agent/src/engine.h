#pragma once
// One recording mode of the agent (async-profiler's Engine): agent.cpp owns the JVMTI
// capabilities and event callbacks and forwards the events here. No method may throw: every
// one runs inside a JVMTI callback.

#include <jvmti.h>

#include "status.h"

namespace bn::agent {

class Engine {
 public:
  virtual ~Engine() = default;

  // The VM is live (VMInit on the main thread, or Agent_OnAttach): begin recording.
  virtual Status start(JNIEnv* jni, bool attached) = 0;
  // VMDeath: stop and join every agent thread, then complete the profile. Idempotent.
  virtual void stop() = 0;
  // ThreadStart / ThreadEnd, called on the thread itself.
  virtual void thread_started(JNIEnv* jni, jthread thread) = 0;
  virtual void thread_ended(JNIEnv* jni, jthread thread) = 0;
};

}  // namespace bn::agent
