#include "sample/stack_stats.h"

#include <cstdio>
#include <numeric>

namespace bn::agent {
namespace {

// Metadata names, by Reason; AsyncGetCallTrace's as forte.cpp names them, without "ticks_".
constexpr const char* kNames[StackStats::kReasons] = {
    "no_class_load", "GC_active",         "unknown_not_Java", "not_walkable_not_Java",
    "unknown_Java",  "not_walkable_Java", "unknown_state",    "thread_exit",
    "deopt",         "safepoint",         "other_error",      "no_method_id",
    "unanswered",    "wrong_thread",      "not_Java_thread",  "first_sample",
    "little_cpu",    "no_signal",         "signals_off",
};

}  // namespace

StackStats::Reason StackStats::reason_of(const SignalStacks::Answer& a) {
  if (a.num_frames >= 0) return kNoMethodId;  // frames came, but one had no jmethodID
  switch (a.num_frames) {
    case SignalStacks::kUnanswered:
      return kUnanswered;
    case SignalStacks::kWrongThread:
      return kWrongThread;
    case SignalStacks::kNotJava:
      return kNotJavaThread;
    default:
      // forte.cpp numbers its codes from -1 (ticks_no_class_load) to -10 (ticks_safepoint),
      // in the order of the enum above.
      return a.num_frames >= -10 ? static_cast<Reason>(kNoClassLoad - 1 - a.num_frames) : kOtherError;
  }
}

bool StackStats::worth_retrying(Reason reason) {
  return reason < kOtherError && reason != kThreadExit && reason != kNoClassLoad;
}

std::uint64_t StackStats::fallbacks() const {
  return std::accumulate(handshake_.begin(), handshake_.begin() + kFirstNotAsked, std::uint64_t{0});
}

std::uint64_t StackStats::handshakes() const {
  return std::accumulate(handshake_.begin(), handshake_.end(), std::uint64_t{0});
}

double StackStats::handshake_share() const {
  const std::uint64_t h = handshakes();
  return h + signal_ == 0 ? 0.0 : static_cast<double>(h) / static_cast<double>(h + signal_);
}

void StackStats::describe(calltree::Metadata& m) const {
  m.set_extra("signal_stacks", std::to_string(signal_));
  m.set_extra("signal_retries", std::to_string(retries_));
  m.set_extra("signal_fallbacks", std::to_string(fallbacks()));
  char share[32];
  std::snprintf(share, sizeof share, "%.3f", handshake_share() * 100);
  m.set_extra("handshake_share_percent", share);
  for (int r = 0; r < kReasons; ++r) {
    if (handshake_[r] == 0) continue;
    m.set_extra(std::string(r < kFirstNotAsked ? "fallback_" : "handshake_") + kNames[r],
                std::to_string(handshake_[r]));
  }
}

}  // namespace bn::agent
