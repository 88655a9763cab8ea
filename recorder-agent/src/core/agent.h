#pragma once
// The agent's one piece of global state: the Recording of the chosen mode's engine (recording.h,
// engine_factory.h). Here the JVMTI capabilities its engines need are added and the one event
// callback table is set; the events they ask for are enabled and forwarded to the recording.
// vm_entry.cpp calls in here.

#include <jni.h>

namespace bn::agent {

// Agent_OnLoad (attached = false) and Agent_OnAttach (attached = true). Bad options print one
// line naming the option and leave the JVM running unprofiled (JNI_OK) unless strict=true.
jint load(JavaVM* vm, const char* options, bool attached);
// Agent_OnUnload: the VM is gone; make sure every engine has stopped.
void unload();

}  // namespace bn::agent
