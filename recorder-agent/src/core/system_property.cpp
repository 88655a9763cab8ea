#include "core/system_property.h"

namespace bn::agent {

std::string system_property(jvmtiEnv* jvmti, const char* name) {
  char* value = nullptr;
  if (jvmti->GetSystemProperty(name, &value) != JVMTI_ERROR_NONE || value == nullptr) return {};
  std::string out(value);
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(value));
  return out;
}

}  // namespace bn::agent
