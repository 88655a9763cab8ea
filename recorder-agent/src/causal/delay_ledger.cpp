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
  const timespec until{static_cast<time_t>(deadline_ns / 1'000'000'000),
                       static_cast<long>(deadline_ns % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

}  // namespace

void DelayLedger::begin(std::int64_t delay_ns) {
  const std::uint32_t next = experiment_of(word_.load()) + 1;
  delays_[next % kDelaySlots].store(delay_ns);
  word_.store(std::uint64_t{next} << 32);
}

void DelayLedger::sync(Account& a, std::uint64_t word) {
  if (a.experiment == experiment_of(word)) return;
  a.experiment = experiment_of(word);
  a.local = 0;
}

void DelayLedger::open(Account& a) const {
  const std::uint64_t word = word_.load();
  a.experiment = experiment_of(word);
  a.local = count_of(word);
}

void DelayLedger::hit(Account& a, std::int64_t periods) {
  const std::uint64_t word = word_.fetch_add(static_cast<std::uint64_t>(periods)) + static_cast<std::uint64_t>(periods);
  if (a.busy != 0) {
    if (a.pending_experiment != experiment_of(word)) a.pending_hits = 0;
    a.pending_experiment = experiment_of(word);
    a.pending_hits += periods;
    return;
  }
  sync(a, word);
  a.local += periods;
}

std::int64_t DelayLedger::pay(Account& a, std::int64_t max_ns) {
  const std::uint64_t word = word_.load();
  sync(a, word);
  if (a.pending_hits != 0 && a.pending_experiment == a.experiment) a.local += a.pending_hits;
  a.pending_hits = 0;
  const std::int64_t owed = count_of(word) - a.local;
  const std::int64_t delay = delays_[experiment_of(word) % kDelaySlots].load(std::memory_order_relaxed);
  if (owed <= 0 || delay <= 0) {
    if (owed > 0) a.local += owed;  // a 0% experiment: nothing to sleep
    return 0;
  }
  const std::int64_t paying = delay >= max_ns ? 1 : std::min<std::int64_t>(owed, max_ns / delay);
  a.local += paying;
  const std::int64_t ns = paying * delay;
  const std::int64_t start = monotonic_ns();
  sleep_until(start + ns);
  const std::int64_t slept = monotonic_ns() - start;
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
  if (a.blocked && woken_by_other) a.local += count_of(word) - (same_experiment ? a.blocked_at : 0);
  a.blocked = false;
}

}  // namespace bn::agent
