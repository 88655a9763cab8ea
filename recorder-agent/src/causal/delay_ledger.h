#pragma once
// Virtual speedup's delay accounting (Coz, Curtsinger and Berger, SOSP 2015, sec. 3; JCoz, seed
// 003 sec. 3): each time a thread's sample satisfies the experiment's target, every *other*
// thread owes a pause of one delay (virtual speedup x sampling period). The ledger keeps one
// global count of hits per experiment, and each thread the delay time it has paid or been
// credited: a thread owes hits x delay minus that, and pays by sleeping at its next sample. The
// thread that ran the target is credited its own delay. A sleep lasts a little longer than asked
// (timer slack, 50 µs by default, and the wake-up); the whole sleep is credited, as Coz credits
// it, so the excess is taken off the next debt instead of slowing the program unaccounted: in
// code that every thread runs at once, where each thread pays a pause per period of the others,
// the excess made a virtual 50% speedup of a parallel phase read 18% where it gave 23%.
//
// A thread that was blocked while delays accrued: Coz's rule. If another thread woke it (a
// monitor released, a notify, an unpark), the waker paid its own delays before waking it, so the
// wait already lasted as long as the delays made it: the delays that accrued while it was
// blocked are credited, never paid twice. A thread whose wait ended by itself (a timeout,
// Thread.sleep) pays them: its wait did not grow with the others'. New threads start with every
// delay of the experiment so far credited (Coz: a child inherits its parent's count, and its
// parent was paid up to the moment it started it).
//
// Experiments change under running threads: the global word holds the experiment's number with
// the count, and a thread that sees a new number starts its account afresh; delays still owed
// from the experiment before are forgiven (at most one period's worth of samples per thread).
//
// Every method on an Account runs on the account's own thread, the handler included; the hooks
// (blocking, waking) set `busy` so that a handler interrupting them only records hits.

#include <atomic>
#include <csignal>
#include <cstdint>

namespace bn::agent {

class DelayLedger {
 public:
  struct Account {
    std::uint32_t experiment = 0;
    std::int64_t credited_ns = 0;  // delay time paid or credited in this experiment
    std::uint32_t blocked_experiment = 0;
    std::int64_t blocked_at = 0;  // the global count when it blocked
    bool blocked = false;
    // Hits a handler recorded while a hook held the account (busy), folded in by the next
    // handler that finds it free.
    volatile std::sig_atomic_t busy = 0;
    std::uint32_t pending_experiment = 0;
    std::int64_t pending_hits = 0;
  };

  // A new experiment: from now on each hit owes `delay_ns` to every other thread.
  void begin(std::int64_t delay_ns);
  // The experiment so far: its number and hits (the global count).
  std::uint32_t experiment() const { return static_cast<std::uint32_t>(word_.load() >> 32); }
  std::int64_t hits() const { return static_cast<std::int64_t>(word_.load() & 0xffffffffU); }
  // The delay time `a` owes now (negative: paid ahead, by a sleep that lasted longer than asked).
  std::int64_t owed_ns(const Account& a) const;
  // Delay time inserted since the start: every experiment's hits x its delay. Latency points
  // (Latency.java) read it to keep time virtually, the pauses taken out.
  const std::atomic<std::int64_t>& inserted_ns() const { return inserted_ns_; }
  // Total time threads slept to pay delays, since the start.
  std::int64_t paid_ns() const { return paid_ns_.load(std::memory_order_relaxed); }

  // A new thread's account: every delay so far credited.
  void open(Account& a) const;
  // In the handler: the sample, standing for `periods` sampling periods, satisfied the target.
  void hit(Account& a, std::int64_t periods);
  // Sleeps what `a` owes, at most about `max_ns` now (at least one delay; the rest stays owed);
  // returns the time slept.
  std::int64_t pay(Account& a, std::int64_t max_ns);
  // The hooks, around a wait (busy set by the caller).
  void before_block(Account& a);
  void after_block(Account& a, bool woken_by_other);

 private:
  static constexpr std::uint32_t kDelaySlots = 4;
  // Brings `a` to the experiment of `word`: a new experiment starts it afresh.
  static void sync(Account& a, std::uint64_t word);
  std::int64_t delay_of(std::uint64_t word) const;

  std::atomic<std::uint64_t> word_{0};                  // experiment << 32 | hits
  std::atomic<std::int64_t> delays_[kDelaySlots] = {};  // delay per hit of experiment e, at e % kDelaySlots
  std::atomic<std::int64_t> paid_ns_{0};
  std::atomic<std::int64_t> inserted_ns_{0};
};

}  // namespace bn::agent
