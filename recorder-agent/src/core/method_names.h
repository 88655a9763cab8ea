#pragma once
// Java method names as profiles spell them: `pkg.Outer$Inner.method`, dotted, with per-run lambda
// and hidden-class numbers stripped (calltree::normalize_frame; docs/architecture.md "Java frame
// names"), in standard UTF-8. The frame tree names the frames of stacks with it, and the causal
// engine the methods of prepared classes, so a target named after a profile's frame matches the
// frames the recorder sees.

#include <jvmti.h>

#include <string>

namespace bn::agent {

// Deallocates a JVMTI string when it goes out of scope.
struct JvmtiString {
  explicit JvmtiString(jvmtiEnv* env) : jvmti(env) {}
  JvmtiString(const JvmtiString&) = delete;
  JvmtiString& operator=(const JvmtiString&) = delete;
  ~JvmtiString() {
    if (text != nullptr) jvmti->Deallocate(reinterpret_cast<unsigned char*>(text));
  }
  jvmtiEnv* jvmti;
  char* text = nullptr;
};

// The name of method `id`, or false if the JVM cannot name it (a stale or invalid id).
bool method_name(jvmtiEnv* jvmti, jmethodID id, std::string& out);

// `klass`'s name as it prefixes its methods' names (`pkg.Outer$Inner`), or false.
bool class_name(jvmtiEnv* jvmti, jclass klass, std::string& out);

}  // namespace bn::agent
