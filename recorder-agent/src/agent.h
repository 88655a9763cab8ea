#pragma once
// The agent's one piece of global state: the JVMTI environment, the capabilities and the event
// callbacks, forwarded to the Engine of the chosen mode. vm_entry.cpp calls in here.

#include <jni.h>

namespace bn::agent {

// Agent_OnLoad (attached = false) and Agent_OnAttach (attached = true). Bad options print one
// line naming the option and leave the JVM running unprofiled (JNI_OK) unless strict=true.
jint load(JavaVM* vm, const char* options, bool attached);
// Agent_OnUnload: the VM is gone; make sure the sampler has stopped.
void unload();

}  // namespace bn::agent
