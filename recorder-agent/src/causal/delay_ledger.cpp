#include "causal/delay_ledger.h"

#include <algorithm>
#include <cerrno>
#include <ctime>

#include "core/os_thread.h"

namespace bn::agent {
namespace {

std::uint32_t experiment_of(std::uint64_t word) { return static_cast<std::uint32_t>(word >> 32); }
std::int64_t count_of(std::uint64_t word) { return static_cast<std::int64_t>(word & 0xffffffffU); }

// Sleeps until CLOCK_MONOTONIC reaches `deadline_ns`; signal-safe (clock_nanosleep is).
void sleep_until(std::int64_t deadline_ns) {
  const timespec until = timespec_of(deadline_ns);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

}  // namespace

void DelayLedger::begin(std::int64_t delay_ns) {
  const std::uint32_t next = experiment_of(word_.load()) + 1;
  delays_[next % kDelaySlots].store(delay_ns);
  word_.store(std::uint64_t{next} << 32);
}

std::int64_t DelayLedger::delay_of(std::uint64_t word) const {
  return delays_[experiment_of(word) % kDelaySlots].load(std::memory_order_relaxed);
}

void DelayLedger::sync(Account& a, std::uint64_t word) {
  if (a.experiment == experiment_of(word)) return;
  a.experiment = experiment_of(word);
  a.credited_ns = 0;
}

std::int64_t DelayLedger::owed_ns(const Account& a) const {
  const std::uint64_t word = word_.load();
  const std::int64_t due = count_of(word) * delay_of(word);
  return a.experiment == experiment_of(word) ? due - a.credited_ns : due;
}

void DelayLedger::open(Account& a) const {
  const std::uint64_t word = word_.load();
  a.experiment = experiment_of(word);
  a.credited_ns = count_of(word) * delay_of(word);
}

void DelayLedger::hit(Account& a, std::int64_t periods) {
  const std::uint64_t word = word_.fetch_add(static_cast<std::uint64_t>(periods)) + static_cast<std::uint64_t>(periods);
  inserted_ns_.fetch_add(periods * delay_of(word), std::memory_order_relaxed);
  if (a.busy != 0) {
    if (a.pending_experiment != experiment_of(word)) a.pending_hits = 0;
    a.pending_experiment = experiment_of(word);
    a.pending_hits += periods;
    return;
  }
  sync(a, word);
  a.credited_ns += periods * delay_of(word);
}

std::int64_t DelayLedger::pay(Account& a, std::int64_t max_ns) {
  const std::uint64_t word = word_.load();
  sync(a, word);
  const std::int64_t delay = delay_of(word);
  if (a.pending_hits != 0 && a.pending_experiment == a.experiment) a.credited_ns += a.pending_hits * delay;
  a.pending_hits = 0;
  const std::int64_t owed = count_of(word) * delay - a.credited_ns;
  if (owed <= 0 || delay <= 0) return 0;
  const std::int64_t asked = std::min(owed, std::max(max_ns, delay));
  const std::int64_t start = monotonic_ns();
  sleep_until(start + asked);
  const std::int64_t slept = monotonic_ns() - start;
  a.credited_ns += slept;
  paid_ns_.fetch_add(slept, std::memory_order_relaxed);
  return slept;
}

void DelayLedger::before_block(Account& a) {
  const std::uint64_t word = word_.load();
  sync(a, word);
  a.blocked = true;
  a.blocked_experiment = a.experiment;
  a.blocked_at = count_of(word);
}

void DelayLedger::after_block(Account& a, bool woken_by_other) {
  const std::uint64_t word = word_.load();
  const bool same_experiment = a.blocked_experiment == experiment_of(word);
  sync(a, word);
  if (a.blocked && woken_by_other)
    a.credited_ns += (count_of(word) - (same_experiment ? a.blocked_at : 0)) * delay_of(word);
  a.blocked = false;
}

}  // namespace bn::agent
