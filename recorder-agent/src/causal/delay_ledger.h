#pragma once
// Virtual speedup's delay accounting (Coz, Curtsinger and Berger, SOSP 2015, sec. 3; JCoz, seed
// 003 sec. 3): each time a thread's sample satisfies the experiment's target, every *other*
// thread owes a pause of one delay (virtual speedup x sampling period). The ledger keeps one
// global count per experiment and each thread a local count of the delays it has paid (or been
// excused): the thread that ran the target counts its own delay as paid, and a thread pays
// (global - local) delays by sleeping, at its next sample.
//
// A thread that was blocked while delays accrued: Coz's rule. If another thread woke it (a
// monitor released, a notify, an unpark), the waker paid its own delays before waking it, so the
// wait already lasted as long as the delays made it: the delays that accrued while it was
// blocked are credited (its local count jumps by them), never paid twice. A thread whose wait
// ended by itself (a timeout, Thread.sleep) pays them: its wait did not grow with the others'.
// New threads start with every delay of the experiment so far credited (Coz: a child inherits
// its parent's count, and its parent was paid up to the moment it started it).
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
    std::int64_t local = 0;
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
  // Total time threads slept to pay delays, since the start.
  std::int64_t paid_ns() const { return paid_ns_.load(std::memory_order_relaxed); }

  // A new thread's account: every delay so far credited.
  void open(Account& a) const;
  // In the handler: the sample, standing for `periods` sampling periods, satisfied the target.
  void hit(Account& a, std::int64_t periods);
  // Sleeps what `a` owes, at most `max_ns` now (the rest stays owed); returns the time slept.
  std::int64_t pay(Account& a, std::int64_t max_ns);
  // The hooks, around a wait (busy set by the caller).
  void before_block(Account& a);
  void after_block(Account& a, bool woken_by_other);

 private:
  static constexpr std::uint32_t kDelaySlots = 4;
  // Brings `a` to the experiment of `word`: a new experiment starts it afresh.
  static void sync(Account& a, std::uint64_t word);

  std::atomic<std::uint64_t> word_{0};                  // experiment << 32 | hits
  std::atomic<std::int64_t> delays_[kDelaySlots] = {};  // delay per hit of experiment e, at e % kDelaySlots
  std::atomic<std::int64_t> paid_ns_{0};
};

}  // namespace bn::agent
