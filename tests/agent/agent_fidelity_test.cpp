// End-to-end fidelity: programs whose truth is known by construction, recorded with
// the default stacks=signal. The shares asserted are properties of where the thread spends its
// instructions, not of timing, so they hold on a loaded machine too; only the number of
// samples shrinks there, and the bounds leave room for that sampling noise.

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "agent_harness.h"
#include "agent_recording.h"

namespace ct = bn::calltree;
namespace st = bn::calltree::thread_state;

namespace {

// RUNNABLE samples of `thread`, by leaf method (self time).
std::map<std::string, int> self_samples(const bn::test::Profile& p, const std::string& thread, int& total) {
  const auto t = bn::test::thread_named(p.samples, thread);
  REQUIRE(t.has_value());
  std::map<std::string, int> by_leaf;
  total = 0;
  for (const ct::SampleRecord& r : p.samples.records) {
    if (r.thread != *t || (r.state & st::kRunnable) == 0) continue;
    ++by_leaf[std::string(p.loaded.tree.node_name(r.node))];
    ++total;
  }
  return by_leaf;
}

}  // namespace

TEST_CASE("a hot method inlined into its caller gets at least 90% of its thread's running samples") {
  // Inlined.mix is a chain of dependent multiplications that the JIT inlines into the loop of
  // Inlined.loop; a stack taken at the next safepoint poll (the loop's back edge) would name
  // Inlined.loop instead, as it did before non-safepoint debug information (99% to the loop).
  const auto p = bn::test::record("Inlined", {"3000"}, ",interval=5ms");
  CHECK(p.loaded.tree.metadata().find_extra("stack_method") == "signal");
  CHECK(p.loaded.tree.metadata().find_extra("non_safepoint_debug_info") == "on");
  const double handshake_share = bn::test::extra_number(p, "handshake_share_percent");
  int total = 0;
  auto self = self_samples(p, "main", total);
  INFO("main's running samples: " << total << ", Inlined.mix " << self["Inlined.mix"] << ", Inlined.loop "
                                  << self["Inlined.loop"] << "; handshake share " << handshake_share << "%");
  REQUIRE(total >= 100);
  CHECK(self["Inlined.mix"] >= 0.9 * total);
}

TEST_CASE("two methods that split a loop's work 70 to 30 are measured within 5 points") {
  // Split.seventy and Split.thirty run the same loop body 700 and 300 times per round. The
  // share is checked on at least 800 samples (a standard error of 1.6 points: 5 points are
  // three of them); a loaded machine takes fewer per run, so runs are added until there are.
  int total = 0, seventy = 0, thirty = 0;
  for (int run = 0; run < 6 && seventy + thirty < 800; ++run) {
    const auto p = bn::test::record("Split", {"4000"}, ",interval=2ms");
    int n = 0;
    auto self = self_samples(p, "main", n);
    total += n;
    seventy += self["Split.seventy"];
    thirty += self["Split.thirty"];
  }
  INFO("main's running samples: " << total << ", Split.seventy " << seventy << ", Split.thirty " << thirty);
  REQUIRE(seventy + thirty >= 800);
  CHECK(seventy + thirty >= 0.9 * total);  // the rest is main's own loop and its clock reads
  const double share = static_cast<double>(seventy) / (seventy + thirty);
  CHECK(share >= 0.65);
  CHECK(share <= 0.75);
}

TEST_CASE("20 threads blocked on a monitor and 20 parked on a lock name its owner in every sample, at bounded cost") {
  // The holders keep the monitor and the ReentrantLock for 8 s; the recording lasts 3 s
  // (duration=), so every sample of a waiter falls inside the hold.
  const auto p = bn::test::record("Contended", {"20", "8000"}, ",duration=3s,maxoverhead=2%");
  const auto monitor_holder = bn::test::thread_named(p.samples, "monitor-holder");
  const auto lock_holder = bn::test::thread_named(p.samples, "lock-holder");
  REQUIRE(monitor_holder.has_value());
  REQUIRE(lock_holder.has_value());
  int blocked = 0, blocked_with_owner = 0, parked = 0, parked_with_owner = 0;
  for (const ct::SampleRecord& r : p.samples.records) {
    const std::string& name = p.samples.threads[r.thread].name;
    if (name.rfind("blocked-", 0) == 0 && (r.state & st::kBlockedOnMonitorEnter) != 0) {
      ++blocked;
      blocked_with_owner += r.owner == *monitor_holder;
    } else if (name.rfind("parked-", 0) == 0 && (r.state & st::kParked) != 0) {
      ++parked;
      parked_with_owner += r.owner == *lock_holder;
    }
  }
  INFO("blocked samples " << blocked << " (" << blocked_with_owner << " with the owner), parked " << parked << " ("
                          << parked_with_owner << ")");
  CHECK(blocked >= 100);
  CHECK(blocked_with_owner == blocked);
  CHECK(parked >= 100);
  CHECK(parked_with_owner == parked);
  // One monitor: at most one lookup per tick, none of which stopped the JVM.
  CHECK(bn::test::extra_number(p, "owner_lookups") <= bn::test::extra_number(p, "ticks"));
  CHECK(bn::test::extra_number(p, "owner_lookup_vm_stopped_ns") == 0);
  // maxoverhead= stretches the interval so that the cost per tick stays within it; one-time
  // costs (the first tick, loading the classes of the owner lookup) are outside it.
  const double duration_ns = static_cast<double>(p.loaded.tree.metadata().duration_ns);
  const double one_time_ns =
      bn::test::extra_number(p, "first_tick_cpu_ns") + bn::test::extra_number(p, "owner_lookup_setup_cpu_ns");
  const double per_tick_percent = bn::test::extra_number(p, "overhead_percent") - one_time_ns / duration_ns * 100;
  INFO("overhead " << bn::test::extra_number(p, "overhead_percent") << "% of which one-time "
                   << one_time_ns / duration_ns * 100 << "%");
  CHECK(per_tick_percent <= 2.0);
}
