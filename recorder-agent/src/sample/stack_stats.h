#pragma once
// How the stacks of threads running Java code were taken, for the metadata and the exit
// summary. A signalled walk (AsyncGetCallTrace) catches a thread at the instruction it was
// running; a handshake (GetStackTrace) catches it at its next safepoint poll, so every such
// stack is safepoint-biased: the time goes to the loop or call the poll sits in, not to the
// instruction (or the inlined method) that was running. The share of running threads' stacks
// taken by handshake is therefore the share of samples that may carry that bias, and each
// reason for one is counted apart.

#include <array>
#include <cstdint>
#include <string>

#include "bn/calltree/metadata.h"
#include "sample/signal_stacks.h"

namespace bn::agent {

class StackStats {
 public:
  // Why a running thread's stack was taken by handshake.
  enum Reason : std::uint8_t {
    // Asked by signal, but the answer was unusable (signal_stacks.h): the codes
    // AsyncGetCallTrace returns (forte.cpp), each by its name there ...
    kNoClassLoad,
    kGcActive,
    kUnknownNotJava,
    kNotWalkableNotJava,
    kUnknownJava,
    kNotWalkableJava,
    kUnknownState,
    kThreadExit,
    kDeopt,
    kSafepoint,
    kOtherError,  // a code this table does not know
    // ... a frame whose method has no jmethodID (method_ids.h), and the answers the handler
    // could not give.
    kNoMethodId,
    kUnanswered,
    kWrongThread,
    kNotJavaThread,
    // Not asked: no CPU-clock reading to compare with yet (first sample, or no known OS tid),
    // too little CPU since the previous sample (most likely blocked inside the VM: a signal
    // would only wake it), no signal could be sent (no free request slot), or signals are
    // off (stacks=handshake, or unavailable).
    kFirstSample,
    kLittleCpu,
    kNoSignal,
    kSignalsOff,
    kReasons
  };
  static constexpr Reason kFirstNotAsked = kFirstSample;

  // A usable answer to a signal.
  void by_signal() { ++signal_; }
  // A thread asked again after an unusable answer.
  void retried() { ++retries_; }
  // Whether asking again, microseconds later, is likely to find the thread walkable: not for
  // a thread that is not (or no longer) the one asked, nor for one that never answered.
  static bool worth_retrying(Reason reason);
  void by_handshake(Reason reason) { ++handshake_[reason]; }
  // The reason for an unusable answer.
  static Reason reason_of(const SignalStacks::Answer& answer);

  std::uint64_t signal_stacks() const { return signal_; }
  // Unusable answers (asked by signal, walked by handshake).
  std::uint64_t fallbacks() const;
  std::uint64_t handshakes() const;
  // Share (0..1) of running threads' fresh stacks taken by handshake; 0 if none were taken.
  double handshake_share() const;

  // signal_stacks, signal_retries, signal_fallbacks, handshake_share_percent, and one key per
  // reason that occurred: fallback_NAME for unusable answers (after the retries), handshake_NAME
  // for threads not asked.
  void describe(calltree::Metadata& m) const;

 private:
  std::uint64_t signal_ = 0;
  std::uint64_t retries_ = 0;
  std::array<std::uint64_t, kReasons> handshake_{};
};

}  // namespace bn::agent
