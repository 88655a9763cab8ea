#include "causal/method_symbols.h"

#include <algorithm>

#include "core/method_names.h"

namespace bn::agent {

MethodSymbols::MethodSymbols(std::vector<Symbol> symbols)
    : symbols_(std::move(symbols)), slots_(std::make_unique<Slot[]>(kSlots)) {
  for (const Symbol& s : symbols_) {
    if (s.pattern) {
      any_aspect_ = true;
    } else {
      method_classes_.push_back(s.name.substr(0, s.name.rfind('.')));
    }
  }
}

bool MethodSymbols::class_may_match(const std::string& klass) const {
  return any_aspect_ || std::find(method_classes_.begin(), method_classes_.end(), klass) != method_classes_.end();
}

void MethodSymbols::class_prepared(jvmtiEnv* jvmti, jclass klass) {
  std::string klass_name;
  if (!class_name(jvmti, klass, klass_name) || !class_may_match(klass_name)) return;
  jint count = 0;
  jmethodID* ids = nullptr;
  if (jvmti->GetClassMethods(klass, &count, &ids) != JVMTI_ERROR_NONE) return;  // not prepared, or gone
  std::string name;
  for (jint i = 0; i < count; ++i) {
    if (!method_name(jvmti, ids[i], name)) continue;
    std::uint64_t bits = 0;
    for (std::size_t s = 0; s < symbols_.size(); ++s)
      if (symbols_[s].matches(name)) bits |= std::uint64_t{1} << s;
    if (bits != 0) store(ids[i], bits);
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(ids));
}

void MethodSymbols::all_loaded(jvmtiEnv* jvmti) {
  jint count = 0;
  jclass* classes = nullptr;
  if (jvmti->GetLoadedClasses(&count, &classes) != JVMTI_ERROR_NONE) return;
  for (jint i = 0; i < count; ++i) {
    jint status = 0;
    if (jvmti->GetClassStatus(classes[i], &status) == JVMTI_ERROR_NONE && (status & JVMTI_CLASS_STATUS_PREPARED) != 0)
      class_prepared(jvmti, classes[i]);
  }
  jvmti->Deallocate(reinterpret_cast<unsigned char*>(classes));
}

void MethodSymbols::store(jmethodID id, std::uint64_t bits) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (stored_ >= kSlots / 2) {
    ++overflow_;
    return;
  }
  for (std::size_t i = slot_of(id), probes = 0; probes < kMaxProbes; i = (i + 1) & (kSlots - 1), ++probes) {
    const jmethodID key = slots_[i].key.load(std::memory_order_relaxed);
    if (key == id) {
      slots_[i].bits.fetch_or(bits, std::memory_order_relaxed);
      return;
    }
    if (key == nullptr) {
      slots_[i].bits.store(bits, std::memory_order_relaxed);
      slots_[i].key.store(id, std::memory_order_release);
      ++stored_;
      return;
    }
  }
  ++overflow_;
}

}  // namespace bn::agent
