#pragma once
// jmethodIDs for every method of every prepared class, created before any signalled walk needs
// them. AsyncGetCallTrace runs in a signal handler and cannot create a jmethodID (that takes a
// lock and allocates), so it reports a frame whose method has none with a null id, and such an
// answer is unusable. HotSpot creates ids lazily, on the first JNI/JVMTI call that names the
// method; GetStackTrace does so for the frames it walks, but a handshake walk stops only at
// safepoint polls, and a small method inlined into a loop (no poll of its own) never shows up
// in one: with non-safepoint debug information on, a signal landing in it then always failed
// and fell back to a handshake, which biased exactly the methods the debug information is
// meant to show. GetClassMethods creates the ids of all the class's methods, so the agent
// calls it for every class at ClassPrepare (before any of its methods can run) and, once, for
// the classes loaded before its events were enabled (async-profiler does the same).
//
// Cost: 8 bytes of C heap per method plus the class's id cache, never freed by HotSpot (not
// even when the class is unloaded), so a program that generates classes without end would
// grow without end: past kMaxMethods the agent creates no more ids (counted; walks of the
// methods it skipped fall back as before).

#include <jvmti.h>

#include <atomic>
#include <cstdint>

namespace bn::agent {

class MethodIds {
 public:
  // About 64 MiB of ids and caches; the JDK's own classes at start-up are ~30,000 methods.
  static constexpr std::uint64_t kMaxMethods = 4'000'000;

  // ClassPrepare, on the thread preparing the class; any thread, any time.
  void class_prepared(jvmtiEnv* jvmti, jclass klass);
  // Every class loaded so far (VMInit, or attach); classes not yet prepared are left to their
  // ClassPrepare event.
  void all_loaded(jvmtiEnv* jvmti, JNIEnv* jni);

  std::uint64_t methods() const { return methods_.load(std::memory_order_relaxed); }
  std::uint64_t classes() const { return classes_.load(std::memory_order_relaxed); }
  std::uint64_t skipped_classes() const { return skipped_.load(std::memory_order_relaxed); }
  // CPU time the calls took on the threads that made them (the program's, at ClassPrepare).
  std::int64_t cpu_ns() const { return cpu_ns_.load(std::memory_order_relaxed); }

 private:
  void create(jvmtiEnv* jvmti, jclass klass);

  std::atomic<std::uint64_t> methods_{0};
  std::atomic<std::uint64_t> classes_{0};
  std::atomic<std::uint64_t> skipped_{0};
  std::atomic<std::int64_t> cpu_ns_{0};
};

}  // namespace bn::agent
