// The signal hand-off of recorder-agent/src/sample/signal_stacks.cpp, without a JVM: real threads, real
// SIGPROF, and a stand-in for AsyncGetCallTrace that reports which thread ran it. The end-to-end
// tests (agent_sampling_test.cpp) run the real AsyncGetCallTrace.

#include "sample/signal_stacks.h"

#include <doctest/doctest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "core/os_thread.h"

using bn::agent::AsyncFrame;
using bn::agent::AsyncTrace;
using bn::agent::SignalStacks;

namespace {

constexpr jint kFrames = 3;
jmethodID const kFakeMethod = reinterpret_cast<jmethodID>(std::uintptr_t{0x1234});

// Set to make the next walks fail like AsyncGetCallTrace in a stub (ticks_unknown_Java).
std::atomic<bool> g_walks_fail{false};

// Stands in for AsyncGetCallTrace: frame 0 names the thread it ran on, frame 1 whether the
// kernel passed a signal context.
void fake_walk(AsyncTrace* trace, jint depth, void* ucontext) {
  if (g_walks_fail.load()) {
    trace->num_frames = -5;
    return;
  }
  const jint n = depth < kFrames ? depth : kFrames;
  for (jint i = 0; i < n; ++i) trace->frames[i] = AsyncFrame{0, kFakeMethod};
  trace->frames[0].bci = bn::agent::current_tid();
  if (n > 1) trace->frames[1].bci = ucontext != nullptr ? 1 : 0;
  trace->num_frames = n;
}

SignalStacks& enabled_stacks() {
  static SignalStacks stacks;
  REQUIRE(stacks.enable(nullptr, fake_walk, 8).ok());
  return stacks;
}

// A thread that spins (so it is on a CPU or queued for one) until stopped; SIGPROF may be held
// back at first, then let through.
class Spinner {
 public:
  explicit Spinner(bool hold_sigprof = false) : hold_(hold_sigprof) {
    thread_ = std::thread([this] {
      sigset_t set;
      sigemptyset(&set);
      sigaddset(&set, SIGPROF);
      if (hold_) pthread_sigmask(SIG_BLOCK, &set, nullptr);
      tid_.store(bn::agent::current_tid());
      while (!stop_.load()) {
        if (hold_ && release_.load()) {
          pthread_sigmask(SIG_UNBLOCK, &set, nullptr);  // a pending SIGPROF is delivered here
          hold_ = false;
          released_.store(true);
        }
      }
    });
    while (tid_.load() == 0) std::this_thread::yield();
  }
  ~Spinner() {
    stop_.store(true);
    thread_.join();
  }
  std::int32_t tid() const { return tid_.load(); }
  void release_sigprof() {
    release_.store(true);
    while (!released_.load()) std::this_thread::yield();
  }

 private:
  bool hold_;
  std::atomic<std::int32_t> tid_{0};
  std::atomic<bool> stop_{false}, release_{false}, released_{false};
  std::thread thread_;
};

// How long a test waits for a thread to answer: only a failing test waits this long, so it is
// generous enough for a loaded machine that keeps a thread from running for seconds.
constexpr std::int64_t kLongWait = 30'000'000'000;

}  // namespace

TEST_CASE("a running thread answers a signal with the stack it walked itself") {
  SignalStacks& stacks = enabled_stacks();
  Spinner spinner;
  const int request = stacks.ask(spinner.tid());
  REQUIRE(request == 0);
  stacks.await_answers(kLongWait);
  const SignalStacks::Answer a = stacks.answer(request);
  REQUIRE(a.num_frames == kFrames);
  CHECK(a.frames[0].bci == spinner.tid());
  CHECK(a.frames[1].bci == 1);
  CHECK(a.frames[2].method == kFakeMethod);
  CHECK(a.handler_ns >= 0);
  stacks.new_round();
}

TEST_CASE("several threads asked in one round each answer their own request, round after round") {
  SignalStacks& stacks = enabled_stacks();
  std::vector<std::unique_ptr<Spinner>> spinners;
  for (int i = 0; i < 3; ++i) spinners.push_back(std::make_unique<Spinner>());
  for (int round = 0; round < 20; ++round) {
    std::vector<int> requests;
    for (const auto& s : spinners) requests.push_back(stacks.ask(s->tid()));
    const auto start = std::chrono::steady_clock::now();
    stacks.await_answers(kLongWait);
    // Every thread answered, so the wait ended on the last answer, before its timeout (however
    // long a loaded machine kept the threads from running).
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::nanoseconds(kLongWait));
    for (std::size_t i = 0; i < spinners.size(); ++i) {
      CHECK(requests[i] == static_cast<int>(i));
      const SignalStacks::Answer a = stacks.answer(requests[i]);
      REQUIRE(a.num_frames == kFrames);
      CHECK(a.frames[0].bci == spinners[i]->tid());
    }
    stacks.new_round();
  }
}

TEST_CASE("a request not answered in time is given up, and its late signal changes nothing") {
  SignalStacks& stacks = enabled_stacks();
  Spinner holding(true);
  Spinner answering;
  REQUIRE(stacks.ask(holding.tid()) == 0);
  stacks.await_answers(20'000'000);
  CHECK(stacks.answer(0).num_frames == SignalStacks::kUnanswered);
  stacks.new_round();

  // The next round reuses slot 0 for another thread; the first signal arrives after that.
  REQUIRE(stacks.ask(answering.tid()) == 0);
  const auto start = std::chrono::steady_clock::now();
  stacks.await_answers(kLongWait);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::nanoseconds(kLongWait));  // the count is right
  holding.release_sigprof();
  const SignalStacks::Answer a = stacks.answer(0);
  REQUIRE(a.num_frames == kFrames);
  CHECK(a.frames[0].bci == answering.tid());
  stacks.new_round();

  // A plain SIGPROF (not one of our requests) is ignored, and does not kill the process.
  pthread_kill(pthread_self(), SIGPROF);
  REQUIRE(stacks.ask(answering.tid()) == 0);
  stacks.await_answers(kLongWait);
  CHECK(stacks.answer(0).frames[0].bci == answering.tid());
  stacks.new_round();
}

TEST_CASE("a round holds at most 128 requests, and signals that coalesce leave the count right") {
  SignalStacks& stacks = enabled_stacks();
  Spinner spinner;
  // The same thread asked again and again: a standard signal already pending is not queued
  // twice, so most of these requests can never be answered and are given up.
  int asked = 0;
  while (stacks.ask(spinner.tid()) >= 0) ++asked;
  CHECK(asked == 128);
  stacks.await_answers(50'000'000);
  // However many answered (none, if the spinner has not run in those 50 ms), each answer is the
  // spinner's own stack.
  for (int i = 0; i < asked; ++i) {
    const SignalStacks::Answer a = stacks.answer(i);
    if (a.num_frames != SignalStacks::kUnanswered) CHECK(a.frames[0].bci == spinner.tid());
  }
  stacks.new_round();
  // Nothing of that round lingers in the count: the next request's wait ends on its answer. It
  // asks another thread: on a loaded machine the spinner may not have run yet, and a signal still
  // pending for it would absorb a new one (standard signals do not queue), carrying the old
  // request's number.
  Spinner other;
  REQUIRE(stacks.ask(other.tid()) == 0);
  stacks.await_answers(kLongWait);
  REQUIRE(stacks.answer(0).num_frames == kFrames);
  CHECK(stacks.answer(0).frames[0].bci == other.tid());
  stacks.new_round();
}

TEST_CASE("an unusable answer rings the alarm; a usable one does not") {
  SignalStacks& stacks = enabled_stacks();
  Spinner spinner;
  std::int32_t seen = SignalStacks::alarms();
  REQUIRE(stacks.ask(spinner.tid()) == 0);
  stacks.await_answers(kLongWait);
  CHECK(stacks.answer(0).usable);
  CHECK_FALSE(stacks.has_unusable_answer());
  CHECK(SignalStacks::alarms() == seen);
  stacks.new_round();

  g_walks_fail.store(true);
  REQUIRE(stacks.ask(spinner.tid()) == 0);
  // The asker sleeps on the alarm, as the sampler does between ticks, and is woken by it.
  const auto start = std::chrono::steady_clock::now();
  while (SignalStacks::alarms() == seen) SignalStacks::sleep_until_alarm(seen, kLongWait);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::nanoseconds(kLongWait));
  g_walks_fail.store(false);
  stacks.await_answers(kLongWait);
  CHECK(stacks.answer(0).num_frames == -5);
  CHECK_FALSE(stacks.answer(0).usable);
  CHECK(stacks.has_unusable_answer());
  stacks.new_round();
  CHECK_FALSE(stacks.has_unusable_answer());

  seen = SignalStacks::alarms();
  SignalStacks::ring();
  CHECK(SignalStacks::alarms() != seen);
}

TEST_CASE("a thread that has ended is not asked") {
  SignalStacks& stacks = enabled_stacks();
  std::int32_t tid = 0;
  std::thread([&] { tid = bn::agent::current_tid(); }).join();
  CHECK(stacks.ask(tid) == -1);
  stacks.await_answers(kLongWait);  // nothing outstanding: returns at once
  stacks.new_round();
}

TEST_CASE("signals are refused when SIGPROF already belongs to someone else") {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    struct sigaction other {};
    other.sa_handler = [](int) {};
    sigaction(SIGPROF, &other, nullptr);
    SignalStacks stacks;
    const std::string why = stacks.enable(nullptr, fake_walk, 8).message();
    _exit(why.find("SIGPROF already has a handler") != std::string::npos && !stacks.enabled() ? 0 : 1);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("enabling twice is fine with the same set-up and refused with another") {
  SignalStacks& stacks = enabled_stacks();
  CHECK(stacks.enabled());
  SignalStacks second;
  CHECK(second.enable(nullptr, fake_walk, 8).ok());
  SignalStacks third;
  CHECK_FALSE(third.enable(nullptr, fake_walk, 16).ok());
  CHECK_FALSE(third.enabled());
  SignalStacks none;
  CHECK(none.enable(nullptr, nullptr, 8).message() == "this JVM has no AsyncGetCallTrace");
}
