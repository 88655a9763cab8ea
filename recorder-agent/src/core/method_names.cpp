#include "core/method_names.h"

#include <string_view>

#include "bn/calltree/frame_names.h"
#include "core/jvm_text.h"

namespace bn::agent {
namespace {

// "Lpkg/Outer$Inner;" → "pkg/Outer$Inner" (normalize_frame turns the slashes into dots).
bool class_signature(jvmtiEnv* jvmti, jclass klass, std::string& out) {
  JvmtiString signature(jvmti);
  if (jvmti->GetClassSignature(klass, &signature.text, nullptr) != JVMTI_ERROR_NONE) return false;
  std::string_view sig(signature.text);
  if (sig.size() >= 2 && sig.front() == 'L' && sig.back() == ';') sig = sig.substr(1, sig.size() - 2);
  out.assign(sig);
  return true;
}

}  // namespace

bool method_name(jvmtiEnv* jvmti, jmethodID id, std::string& out) {
  JvmtiString name(jvmti);
  jclass klass = nullptr;
  std::string full;
  if (jvmti->GetMethodName(id, &name.text, nullptr, nullptr) != JVMTI_ERROR_NONE ||
      jvmti->GetMethodDeclaringClass(id, &klass) != JVMTI_ERROR_NONE || !class_signature(jvmti, klass, full))
    return false;
  full += '.';
  full += name.text;
  out = calltree::normalize_frame(standard_utf8(full));
  return true;
}

bool class_name(jvmtiEnv* jvmti, jclass klass, std::string& out) {
  std::string full;
  if (!class_signature(jvmti, klass, full)) return false;
  // Normalised as a method of the class is, then the method taken off again: normalize_frame
  // reads the last dot as the one before the method's name.
  full += ".m";
  out = calltree::normalize_frame(standard_utf8(full));
  out.resize(out.size() - 2);
  return true;
}

}  // namespace bn::agent
