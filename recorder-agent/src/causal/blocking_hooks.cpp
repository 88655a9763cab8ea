#include "causal/blocking_hooks.h"

#include <limits>

#include "causal/causal_threads.h"
#include "core/jni_failed.h"
#include "core/local_frame.h"
#include "core/os_thread.h"

namespace bn::agent {

using ParkFunction = void(JNICALL*)(JNIEnv*, jobject, jboolean, jlong);
using UnparkFunction = void(JNICALL*)(JNIEnv*, jobject, jobject);

// The wrappers: JNI gives a native no context of its own, so they reach the one hooks object of
// the JVM's causal recording through these.
struct ParkWrappers {
  static inline std::atomic<BlockingHooks*> hooks{nullptr};
  static inline ParkFunction park = nullptr;
  static inline UnparkFunction unpark = nullptr;

  static void JNICALL wrapped_park(JNIEnv* jni, jobject unsafe, jboolean absolute, jlong time) {
    BlockingHooks* const h = hooks.load(std::memory_order_acquire);
    if (h == nullptr) {
      park(jni, unsafe, absolute, time);
      return;
    }
    h->parks_.fetch_add(1, std::memory_order_relaxed);
    // Unsafe.park(false, 0) waits without a deadline; (false, ns) for ns; (true, ms) until the
    // epoch time ms.
    const bool timed = absolute != JNI_FALSE || time > 0;
    const std::int64_t deadline = absolute != JNI_FALSE ? time * 1'000'000 : monotonic_ns() + time;
    h->before_block();
    park(jni, unsafe, absolute, time);
    const std::int64_t now = absolute != JNI_FALSE ? realtime_ns() : monotonic_ns();
    h->after_block(!(timed && now >= deadline));
  }

  static void JNICALL wrapped_unpark(JNIEnv* jni, jobject unsafe, jobject thread) {
    if (BlockingHooks* const h = hooks.load(std::memory_order_acquire); h != nullptr) h->catch_up();
    unpark(jni, unsafe, thread);
  }
};

void BlockingHooks::native_bound(jmethodID method, void* address) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (collecting_) bound_.emplace_back(method, address);
}

// UnsafeBinding.rebind0(): registers the wrappers from a native method of a boot class.
jboolean JNICALL rebind_unsafe(JNIEnv* jni, jclass) {
  const jclass unsafe = jni->FindClass("jdk/internal/misc/Unsafe");
  if (failed(jni) || unsafe == nullptr) return JNI_FALSE;
  const JNINativeMethod wrappers[] = {
      {const_cast<char*>("park"), const_cast<char*>("(ZJ)V"), reinterpret_cast<void*>(ParkWrappers::wrapped_park)},
      {const_cast<char*>("unpark"), const_cast<char*>("(Ljava/lang/Object;)V"),
       reinterpret_cast<void*>(ParkWrappers::wrapped_unpark)}};
  return jni->RegisterNatives(unsafe, wrappers, 2) == JNI_OK && !failed(jni) ? JNI_TRUE : JNI_FALSE;
}

Status BlockingHooks::wrap_park(JNIEnv* jni) {
  const LocalFrame frame(jni, 8);
  if (!frame) return Status::error("out of JNI local references");
  const jclass unsafe = jni->FindClass("jdk/internal/misc/Unsafe");
  const jmethodID park = unsafe != nullptr ? jni->GetMethodID(unsafe, "park", "(ZJ)V") : nullptr;
  const jmethodID unpark = unsafe != nullptr ? jni->GetMethodID(unsafe, "unpark", "(Ljava/lang/Object;)V") : nullptr;
  const jclass binding = jni->FindClass("bottlenecks/runtime/UnsafeBinding");
  const jmethodID rebind = binding != nullptr ? jni->GetStaticMethodID(binding, "rebind", "()Z") : nullptr;
  if (failed(jni) || park == nullptr || unpark == nullptr || rebind == nullptr)
    return Status::error("cannot find Unsafe.park, or the runtime's UnsafeBinding");
  void* park_address = nullptr;
  void* unpark_address = nullptr;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [method, address] : bound_) {
      if (method == park) park_address = address;
      if (method == unpark) unpark_address = address;
    }
    bound_.clear();
    bound_.shrink_to_fit();
    collecting_ = false;
  }
  if (park_address == nullptr || unpark_address == nullptr)
    return Status::error("the JVM did not say where Unsafe.park is bound");
  ParkWrappers::park = reinterpret_cast<ParkFunction>(park_address);
  ParkWrappers::unpark = reinterpret_cast<UnparkFunction>(unpark_address);
  ParkWrappers::hooks.store(this, std::memory_order_release);
  const JNINativeMethod native = {const_cast<char*>("rebind0"), const_cast<char*>("()Z"),
                                  reinterpret_cast<void*>(rebind_unsafe)};
  if (jni->RegisterNatives(binding, &native, 1) != JNI_OK || failed(jni) ||
      jni->CallStaticBooleanMethod(binding, rebind) != JNI_TRUE || failed(jni)) {
    ParkWrappers::hooks.store(nullptr, std::memory_order_release);
    return Status::error("cannot rebind Unsafe.park");
  }
  return Status();
}

void BlockingHooks::stop() { ParkWrappers::hooks.store(nullptr, std::memory_order_release); }

void BlockingHooks::before_block() {
  CausalThread* const t = CausalThreads::current();
  if (t == nullptr) return;
  t->account.busy = 1;
  ledger_.pay(t->account, std::numeric_limits<std::int64_t>::max());
  ledger_.before_block(t->account);
  t->account.busy = 0;
}

void BlockingHooks::after_block(bool woken_by_other) {
  CausalThread* const t = CausalThreads::current();
  if (t == nullptr) return;
  t->account.busy = 1;
  ledger_.after_block(t->account, woken_by_other);
  t->account.busy = 0;
}

void BlockingHooks::catch_up() {
  CausalThread* const t = CausalThreads::current();
  if (t == nullptr) return;
  t->account.busy = 1;
  ledger_.pay(t->account, std::numeric_limits<std::int64_t>::max());
  t->account.busy = 0;
}

void BlockingHooks::contended_enter() { before_block(); }
void BlockingHooks::contended_entered() { after_block(true); }
void BlockingHooks::wait() { before_block(); }
void BlockingHooks::waited(bool timed_out) { after_block(!timed_out); }

}  // namespace bn::agent
