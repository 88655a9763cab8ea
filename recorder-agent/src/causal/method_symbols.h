#pragma once
// Which target symbols (causal_targets.h) each method is, by jmethodID, for the signal handler:
// a frame of a sampled stack is a jmethodID, and naming it there is impossible (JVMTI allocates
// and locks). So every method of every prepared class is named once, on the thread preparing the
// class, and the methods that are some symbol go into a fixed open-addressing table that the
// handler probes without a lock. Methods that are no symbol are not stored: a lookup that ends
// on an empty slot answers 0.
//
// Writers (ClassPrepare, start) serialise on a mutex; readers never wait. A slot's bits are
// stored before its key is published (release), so a reader that finds the key sees its bits.

#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "causal/causal_targets.h"

namespace bn::agent {

class MethodSymbols {
 public:
  // 2^16 slots: up to half of them used keeps probes short; past that, further methods are
  // counted (overflow()) and never match, which the recording's metadata reports.
  static constexpr std::size_t kSlots = std::size_t{1} << 16;

  explicit MethodSymbols(std::vector<Symbol> symbols);

  // Names and stores the methods of `klass` that are some symbol. Any thread, not a handler.
  void class_prepared(jvmtiEnv* jvmti, jclass klass);
  // Every class loaded so far (at start).
  void all_loaded(jvmtiEnv* jvmti);

  // The symbols method `id` is (bit i: symbols[i]); 0 for a method that is none. Signal-safe.
  std::uint64_t bits(jmethodID id) const {
    if (id == nullptr) return 0;
    for (std::size_t i = slot_of(id), probes = 0; probes < kMaxProbes; i = (i + 1) & (kSlots - 1), ++probes) {
      const jmethodID key = slots_[i].key.load(std::memory_order_acquire);
      if (key == id) return slots_[i].bits.load(std::memory_order_relaxed);
      if (key == nullptr) return 0;
    }
    return 0;
  }

  std::uint64_t stored() const { return stored_; }
  std::uint64_t overflow() const { return overflow_; }

 private:
  static constexpr std::size_t kMaxProbes = 64;
  static std::size_t slot_of(jmethodID id) {
    auto h = reinterpret_cast<std::uintptr_t>(id);
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15ULL;
    return static_cast<std::size_t>(h >> 48) & (kSlots - 1);
  }
  void store(jmethodID id, std::uint64_t bits);
  bool class_may_match(const std::string& klass) const;

  struct Slot {
    std::atomic<jmethodID> key{nullptr};
    std::atomic<std::uint64_t> bits{0};
  };
  std::vector<Symbol> symbols_;
  bool any_aspect_ = false;
  std::vector<std::string> method_classes_;  // the class part of each method symbol
  std::mutex mutex_;                         // serialises writers
  std::unique_ptr<Slot[]> slots_;
  std::uint64_t stored_ = 0;    // guarded by mutex_
  std::uint64_t overflow_ = 0;  // guarded by mutex_
};

}  // namespace bn::agent
