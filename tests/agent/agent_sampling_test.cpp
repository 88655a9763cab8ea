// End-to-end: Java programs with a known behaviour, sampled by the agent, profile decoded with
// the project's reader.

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "agent_harness.h"
#include "agent_recording.h"

namespace ct = bn::calltree;
namespace st = bn::calltree::thread_state;

using bn::test::record;

// Hot.hot dominates main's samples, and the plain call tree says the same; returns how many of
// main's samples there were.
static int check_hot_path_dominates(const bn::test::Profile& p) {
  const ct::CallTree& tree = p.loaded.tree;
  CHECK(tree.metadata().mode == "sample");
  CHECK(tree.metadata().metric == "samples");
  const auto main = bn::test::thread_named(p.samples, "main");
  REQUIRE(main.has_value());
  int in_main = 0, in_hot = 0, in_cold = 0;
  for (const ct::SampleRecord& r : p.samples.records) {
    if (r.thread != *main) continue;
    ++in_main;
    const bool hot = bn::test::stack_contains(tree, r.node, "Hot.hot");
    in_hot += hot;
    in_cold += bn::test::stack_contains(tree, r.node, "Hot.cold");
    if (hot) CHECK(bn::test::stack_contains(tree, r.node, "Hot.main"));  // whole stacks, callers kept
  }
  REQUIRE(in_main >= 30);
  CHECK(in_hot * 10 >= in_main * 6);
  CHECK(in_hot > 4 * in_cold);
  // The plain call tree (samples per node) says the same without the records.
  const auto hot = tree.find_method("Hot.hot");
  REQUIRE(hot.has_value());
  ct::Cost hot_samples = 0;
  for (ct::NodeId n : tree.nodes_of(*hot)) hot_samples += tree.cum_cost(n);
  CHECK(hot_samples == in_hot);
  CHECK(tree.total_cost() == static_cast<ct::Cost>(bn::test::java_samples(p.samples)));
  return in_main;
}

static std::uint64_t extra_count(const bn::test::Profile& p, const char* key) {
  return static_cast<std::uint64_t>(bn::test::extra_number(p, key));
}

TEST_CASE("a CPU-bound program's known hot path dominates its thread's samples") {
  const auto p = record("Hot", {"1500"});
  const int in_main = check_hot_path_dominates(p);
  // The running thread walked its own stack when signalled (stacks=signal, the default) for
  // most samples; the rest (a first sample, an answer from a stub) were taken by handshake.
  CHECK(p.loaded.tree.metadata().find_extra("stack_method") == "signal");
  CHECK(extra_count(p, "signal_stacks") * 2 >= static_cast<std::uint64_t>(in_main));
}

TEST_CASE("with stacks=handshake every stack is taken by GetStackTrace, with the same result") {
  const auto p = record("Hot", {"1500"}, ",stacks=handshake");
  check_hot_path_dominates(p);
  CHECK(p.loaded.tree.metadata().find_extra("stack_method") == "handshake");
  CHECK(extra_count(p, "signal_stacks") == 0);
  CHECK(extra_count(p, "signal_fallbacks") == 0);
}

TEST_CASE("a thread blocked on a monitor is recorded with its state and the owner thread") {
  const auto p = record("Blocked", {});
  const auto waiter = bn::test::thread_named(p.samples, "blocked-waiter");
  const auto holder = bn::test::thread_named(p.samples, "lock-holder");
  REQUIRE(waiter.has_value());
  REQUIRE(holder.has_value());
  int blocked = 0, with_owner = 0, wrong_owner = 0;
  for (const ct::SampleRecord& r : p.samples.records) {
    if (r.thread != *waiter || (r.state & st::kBlockedOnMonitorEnter) == 0) continue;
    ++blocked;
    with_owner += r.owner == *holder;
    wrong_owner += r.owner != *holder && r.owner != ct::kNoThread;
  }
  CHECK(blocked >= 10);
  // The tick that catches the holder letting go may see the waiter still blocked but the
  // monitor already free: at most one or two such samples.
  CHECK(with_owner >= blocked - 2);
  CHECK(wrong_owner == 0);
}

TEST_CASE("sleeping, waiting and parked threads carry their JVMTI states") {
  const auto p = record("Idle", {});
  auto count = [&](const char* name, std::uint32_t bits) {
    const auto t = bn::test::thread_named(p.samples, name);
    REQUIRE(t.has_value());
    int n = 0;
    for (const ct::SampleRecord& r : p.samples.records) n += r.thread == *t && (r.state & bits) == bits;
    return n;
  };
  CHECK(count("idle-sleeper", st::kSleeping) >= 10);
  CHECK(count("idle-waiter", st::kInObjectWait) >= 10);
  CHECK(count("idle-parker", st::kParked) >= 10);
  CHECK(count("idle-\xF0\x9F\x98\x80", st::kParked) >= 10);  // U+1F600 in the name
}

TEST_CASE("a RUNNABLE thread idle in native code gets a CPU split whose spans add up") {
  // Its schedstat file is not re-read while its CPU clock stands still (cpu_split.h); the
  // records must still cover the whole time between its first and last reading.
  const auto p = record("Idle", {});
  const auto acceptor = bn::test::thread_named(p.samples, "idle-acceptor");
  REQUIRE(acceptor.has_value());
  std::int64_t baseline_time = -1, last_time = -1;
  std::uint64_t elapsed = 0, run = 0;
  int runnable = 0;
  for (const ct::SampleTick& t : p.samples.ticks) {
    for (std::uint32_t i = t.first_record; i < t.first_record + t.record_count; ++i) {
      const ct::SampleRecord& r = p.samples.records[i];
      if (r.thread != *acceptor || (r.state & st::kRunnable) == 0) continue;
      ++runnable;
      if (!r.has_cpu) {
        // The first reading is a bare baseline; so is any record taken before it, when a tick
        // caught the new thread before its ThreadStart event told the agent its OS tid.
        CHECK(last_time < 0);
        baseline_time = t.time_ns;
        continue;
      }
      elapsed += r.elapsed_ns;
      run += r.run_ns;
      last_time = t.time_ns;
    }
  }
  CHECK(runnable >= 10);
  REQUIRE(baseline_time >= 0);
  REQUIRE(last_time >= 0);
  CHECK(static_cast<std::int64_t>(elapsed) == last_time - baseline_time);
  CHECK(static_cast<double>(run) < 0.05 * static_cast<double>(elapsed));
}

TEST_CASE("three busy threads on two CPUs show time waiting for a CPU") {
  const auto p = record("Busy", {"3", "1500"});
  std::uint64_t elapsed = 0, run = 0, wait = 0;
  for (const ct::ThreadEntry& t : p.samples.threads) {
    if (t.name.rfind("busy-", 0) != 0) continue;
    CHECK(t.os_tid != 0);
    for (const ct::SampleRecord& r : p.samples.records) {
      if (r.thread != t.index || !r.has_cpu) continue;
      elapsed += r.elapsed_ns;
      run += r.run_ns;
      wait += r.wait_ns;
    }
  }
  REQUIRE(elapsed > 0);
  // Three runnable threads share at most two CPUs: each waits at least a third of the time
  // (more on a machine busy with other work, so only the lower bound is checked).
  CHECK(static_cast<double>(wait) >= 0.15 * static_cast<double>(elapsed));
  CHECK(run > 0);
  CHECK(run + wait <= elapsed + elapsed / 10);
}

TEST_CASE("thousands of short-lived threads are sampled without failure") {
  const auto p = record("ShortLived", {"4000"}, ",interval=2ms");
  CHECK(p.samples.ticks.size() > 10);
  CHECK(p.samples.threads.size() > 1);
  CHECK(p.loaded.tree.metadata().find_extra("threads_gone").has_value());
  for (const ct::ThreadEntry& t : p.samples.threads)
    if (t.name.rfind("short-", 0) == 0) CHECK(t.os_tid != 0);
}

TEST_CASE("a stack deeper than depth= keeps its innermost frames under a [truncated] frame") {
  const auto p = record("Deep", {"3000"}, ",depth=100");
  const ct::CallTree& tree = p.loaded.tree;
  const auto deep = bn::test::thread_named(p.samples, "deep");
  REQUIRE(deep.has_value());
  int truncated = 0;
  for (const ct::SampleRecord& r : p.samples.records) {
    // Sleeping at the bottom of the recursion; a sample taken on the way down may be shallower.
    if (r.thread != *deep || (r.state & st::kSleeping) == 0 || !bn::test::stack_contains(tree, r.node, "Deep.down"))
      continue;
    CHECK(bn::test::stack_contains(tree, r.node, "[truncated]"));
    CHECK(tree.depth(r.node) <= 101);
    ++truncated;
  }
  CHECK(truncated >= 10);
}

TEST_CASE("an idle thread's reused stack follows it to wherever it sleeps next") {
  const auto p = record("Wakes", {});
  const ct::CallTree& tree = p.loaded.tree;
  // main waits in join() the whole run without running: its stack is reused, not walked.
  const auto reused = tree.metadata().find_extra("reused_stacks");
  REQUIRE(reused.has_value());
  CHECK(std::stoull(std::string(*reused)) > 0);
  const auto wakes = bn::test::thread_named(p.samples, "wakes");
  REQUIRE(wakes.has_value());
  // Records are in time order. Every sleeping sample is on Thread.sleep under exactly one of the
  // two methods; a stale reused stack would keep showing the first method after the switch.
  int first = 0, second = 0, switches = 0;
  int last = 0;  // 1 or 2: the method of the previous sleeping sample
  for (const ct::SampleRecord& r : p.samples.records) {
    if (r.thread != *wakes || (r.state & st::kSleeping) == 0) continue;
    CHECK(bn::test::stack_contains(tree, r.node, "java.lang.Thread.sleep"));
    const bool in_first = bn::test::stack_contains(tree, r.node, "Wakes.sleepInFirst");
    const bool in_second = bn::test::stack_contains(tree, r.node, "Wakes.sleepInSecond");
    CHECK(in_first != in_second);
    const int now = in_first ? 1 : 2;
    first += in_first;
    second += in_second;
    switches += last != 0 && now != last;
    last = now;
  }
  CHECK(first >= 20);
  CHECK(second >= 20);
  CHECK(switches >= 5);  // 8 sleeps in alternation: 7 switches, allowing for missed ticks
}
