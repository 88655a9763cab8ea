#pragma once
// A JVM system property (e.g. "java.vm.name") through JVMTI, for the profiles' metadata; empty
// if unset.

#include <jvmti.h>

#include <string>

namespace bn::agent {

std::string system_property(jvmtiEnv* jvmti, const char* name);

}  // namespace bn::agent
