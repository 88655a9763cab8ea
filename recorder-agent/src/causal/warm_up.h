#pragma once
// The default targets of a causal recording that names none: the methods that the most CPU
// samples of a short warm-up ran under (cum, each method counted once per sample), leaving out
// those under nearly every sample (a thread's run loop, main: speeding them virtually would speed
// everything, which says nothing), and taking one method of each group that always runs together
// (a lambda and the method it calls: one place in the program, the one nearest the leaves). The
// handler copies each sample's innermost frames into a
// fixed buffer (no allocation, one atomic add); the experiment thread counts them once the
// warm-up is over. Only the innermost kFrames frames count, so a target is at most that far from
// where the time is spent.

#include <jvmti.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sample/signal_stacks.h"

namespace bn::agent {

class WarmUp {
 public:
  static constexpr std::size_t kFrames = 64;
  static constexpr std::size_t kSamples = 16384;
  // A method under more than this share of the samples is no target.
  static constexpr double kSpineShare = 0.8;
  // The hottest methods considered, and the share of the samples of the hotter of two methods
  // that both must run under to be one place in the program.
  static constexpr std::size_t kCandidates = 32;
  static constexpr double kSamePlace = 0.9;

  WarmUp() : records_(std::make_unique<Record[]>(kSamples)) {}

  // In the handler: one sample's frames, innermost first.
  void add(const AsyncFrame* frames, jint count) {
    const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= kSamples) return;
    Record& r = records_[i];
    r.count = static_cast<std::uint32_t>(count < 0 ? 0 : count > static_cast<jint>(kFrames) ? kFrames : count);
    for (std::uint32_t f = 0; f < r.count; ++f) r.methods[f] = frames[f].method;
    r.done.store(true, std::memory_order_release);
  }

  // Once the handlers no longer add: up to `count` methods by descending cum, named.
  std::vector<std::string> hottest(jvmtiEnv* jvmti, std::size_t count) const;
  std::size_t samples() const { return std::min(next_.load(), kSamples); }

 private:
  struct Record {
    std::atomic<bool> done{false};
    std::uint32_t count = 0;
    jmethodID methods[kFrames];
  };
  std::unique_ptr<Record[]> records_;
  std::atomic<std::size_t> next_{0};
};

}  // namespace bn::agent
