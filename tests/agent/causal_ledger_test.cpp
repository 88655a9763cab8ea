// The delay accounting of virtual speedup (recorder-agent/src/causal/delay_ledger.h, Coz's
// counts): who owes what after which hits, and Coz's rule for blocked threads. Accounts stand for
// threads; pay() sleeps for real, so the delays are small and the checks are on the counts and on
// the time slept being at least what was owed.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "causal/delay_ledger.h"

using bn::agent::DelayLedger;

namespace {

constexpr std::int64_t kDelay = 20'000;  // 20 µs per period hit
constexpr std::int64_t kNoCap = INT64_MAX;

// Delays `a` owes now, without paying them, rounded down (a sleep may have paid some ahead).
std::int64_t owed(const DelayLedger& ledger, const DelayLedger::Account& a) {
  const std::int64_t ns = ledger.owed_ns(a);
  return ns <= 0 ? 0 : ns / kDelay;
}

// An experiment under way with two threads' accounts: `runner` runs the target, `other` does not.
struct TwoThreads {
  explicit TwoThreads(std::int64_t delay = kDelay) {
    ledger.begin(delay);
    ledger.open(runner);
    ledger.open(other);
  }
  DelayLedger ledger;
  DelayLedger::Account runner, other;
};

}  // namespace

TEST_CASE("a hit owes every other thread one delay, and the thread that ran the target none") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& other = t.other;
  ledger.hit(runner, 1);
  ledger.hit(runner, 3);  // a sample standing for three periods
  CHECK(owed(ledger, runner) == 0);
  CHECK(owed(ledger, other) == 4);
  CHECK(ledger.pay(runner, kNoCap) == 0);
  CHECK(ledger.pay(other, kNoCap) >= 4 * kDelay);
  CHECK(ledger.owed_ns(other) <= 0);
  CHECK(ledger.pay(other, kNoCap) == 0);  // paid once only
  CHECK(ledger.paid_ns() >= 4 * kDelay);
}

TEST_CASE("threads running the target at once owe each other: their delays cancel") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& a = t.runner;
  DelayLedger::Account& b = t.other;
  for (int i = 0; i < 5; ++i) {
    ledger.hit(a, 1);
    ledger.hit(b, 1);
  }
  // Each pays the other's five; the experiment subtracts ten from the run's time.
  CHECK(owed(ledger, a) == 5);
  CHECK(owed(ledger, b) == 5);
  CHECK(ledger.hits() == 10);
}

TEST_CASE("a pause is paid in pieces of at most the cap") {
  constexpr std::int64_t kLong = 1'000'000;  // 1 ms a hit: a sleep's excess is small beside it
  TwoThreads t(kLong);
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& other = t.other;
  ledger.hit(runner, 10);
  // Asked for 3 ms of the 10 owed: the rest stays owed, whatever the sleep's excess was.
  const std::int64_t slept = ledger.pay(other, 3 * kLong);
  CHECK(slept >= 3 * kLong);
  CHECK(ledger.owed_ns(other) == 10 * kLong - slept);
  // A cap below one delay still pays one, so a debt always shrinks.
  const std::int64_t before = ledger.owed_ns(other);
  if (before > 0) {
    CHECK(ledger.pay(other, 1) >= std::min(before, kLong));
    CHECK(ledger.owed_ns(other) <= before - std::min(before, kLong));
  }
}

TEST_CASE("Coz's rule: a thread woken by another is credited the delays that accrued while it waited") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& waiter = t.other;
  ledger.hit(runner, 2);  // owed before it blocks: still owed after
  ledger.before_block(waiter);
  ledger.hit(runner, 5);
  ledger.after_block(waiter, /*woken_by_other=*/true);
  CHECK(owed(ledger, waiter) == 2);
}

TEST_CASE("Coz's rule: a wait that ended by itself (a timeout, a sleep) pays what accrued") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& sleeper = t.other;
  ledger.before_block(sleeper);
  ledger.hit(runner, 5);
  ledger.after_block(sleeper, /*woken_by_other=*/false);
  CHECK(owed(ledger, sleeper) == 5);
}

TEST_CASE("a wait that spans experiments is credited the new experiment's delays") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& waiter = t.other;
  ledger.before_block(waiter);
  ledger.begin(2 * kDelay);
  ledger.hit(runner, 4);
  ledger.after_block(waiter, true);
  CHECK(owed(ledger, waiter) == 0);
}

TEST_CASE("a new thread starts with the experiment's delays so far credited") {
  DelayLedger ledger;
  ledger.begin(kDelay);
  DelayLedger::Account runner;
  ledger.open(runner);
  ledger.hit(runner, 6);
  DelayLedger::Account late;
  ledger.open(late);
  CHECK(owed(ledger, late) == 0);
  ledger.hit(runner, 1);
  CHECK(owed(ledger, late) == 1);
}

TEST_CASE("a sleep longer than asked is credited whole: the excess comes off the next debt") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& other = t.other;
  ledger.hit(runner, 1);
  const std::int64_t slept = ledger.pay(other, kNoCap);
  CHECK(slept >= kDelay);
  CHECK(ledger.owed_ns(other) == kDelay - slept);
  ledger.hit(runner, 1);
  CHECK(ledger.owed_ns(other) == 2 * kDelay - slept);
}

TEST_CASE("debts of an experiment are forgiven when the next begins") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& other = t.other;
  ledger.hit(runner, 3);
  ledger.begin(kDelay);
  CHECK(ledger.hits() == 0);
  CHECK(ledger.pay(other, kNoCap) == 0);
}

TEST_CASE("an experiment at 0% counts hits and sleeps nothing") {
  TwoThreads t(0);
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& runner = t.runner;
  DelayLedger::Account& other = t.other;
  ledger.hit(runner, 3);
  CHECK(ledger.hits() == 3);
  CHECK(ledger.pay(other, kNoCap) == 0);
  CHECK(owed(ledger, other) == 0);
}

TEST_CASE("a hit in a handler that interrupted a hook waits for the next handler") {
  TwoThreads t;
  DelayLedger& ledger = t.ledger;
  DelayLedger::Account& a = t.runner;
  DelayLedger::Account& other = t.other;
  a.busy = 1;  // a hook holds the account
  ledger.hit(a, 2);
  CHECK(a.credited_ns == 0);  // untouched while busy
  a.busy = 0;
  CHECK(ledger.pay(a, kNoCap) == 0);  // its own hits, folded in: it owes nothing
  CHECK(owed(ledger, a) == 0);
  CHECK(owed(ledger, other) == 2);
}

TEST_CASE("the ledger totals the delay every hit inserts, across experiments") {
  DelayLedger ledger;
  DelayLedger::Account a;
  ledger.begin(1'000);
  ledger.open(a);
  ledger.hit(a, 3);
  ledger.begin(500);
  ledger.hit(a, 2);
  ledger.begin(0);
  ledger.hit(a, 7);
  CHECK(ledger.inserted_ns().load() == 3 * 1'000 + 2 * 500);
}
