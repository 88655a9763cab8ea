// The RUNNABLE split (recorder-agent/src/sample/cpu_split.cpp): per-sample deltas of a thread's
// schedstat counters, with readings skipped while the thread's CPU clock stands still.

#include "sample/cpu_split.h"

#include <doctest/doctest.h>

#include <cstdint>

using bn::agent::CpuSplit;
using bn::agent::SchedStat;
namespace ct = bn::calltree;

namespace {

ct::SampleRecord reading(CpuSplit& split, std::int64_t now, std::int64_t clock, std::uint64_t run, std::uint64_t wait) {
  ct::SampleRecord r;
  split.on_reading(now, clock, SchedStat{run, wait}, r);
  return r;
}

ct::SampleRecord unchanged(CpuSplit& split, std::int64_t now) {
  ct::SampleRecord r;
  split.on_unchanged(now, r);
  return r;
}

void check_split(const ct::SampleRecord& r, std::uint64_t elapsed, std::uint64_t run, std::uint64_t wait) {
  REQUIRE(r.has_cpu);
  CHECK(r.elapsed_ns == elapsed);
  CHECK(r.run_ns == run);
  CHECK(r.wait_ns == wait);
}

}  // namespace

TEST_CASE("the first reading is only a baseline and every later one gives the deltas since the last") {
  CpuSplit split;
  CHECK(split.worth_reading(5));
  CHECK_FALSE(reading(split, 1000, 5, 100, 10).has_cpu);
  check_split(reading(split, 3000, 900, 700, 50), 2000, 600, 40);
}

TEST_CASE("a reading is worth taking only if the thread's CPU clock moved since the last one") {
  CpuSplit split;
  reading(split, 1000, 500, 400, 0);
  CHECK_FALSE(split.worth_reading(500));
  CHECK(split.worth_reading(501));
  CHECK(split.worth_reading(-1));  // clock unknown (thread gone): read rather than guess
  CpuSplit unknown_clock;
  reading(unknown_clock, 1000, -1, 400, 0);
  CHECK(unknown_clock.worth_reading(-1));
}

TEST_CASE("a skipped reading records no CPU and no run-queue time over the time since the last record") {
  CpuSplit split;
  reading(split, 1000, 500, 400, 30);
  check_split(unchanged(split, 1500), 500, 0, 0);
  check_split(unchanged(split, 2100), 600, 0, 0);
}

TEST_CASE("time the kernel books late is counted once, by the next reading, and totals add up") {
  // Run-queue time reaches the counters when the thread gets a CPU: readings skipped before
  // that lose nothing, the next one carries it.
  CpuSplit split;
  reading(split, 0, 100, 100, 0);
  std::uint64_t elapsed = 0, run = 0, wait = 0;
  for (const ct::SampleRecord& r : {unchanged(split, 10), unchanged(split, 20), reading(split, 30, 150, 150, 25)}) {
    REQUIRE(r.has_cpu);
    elapsed += r.elapsed_ns;
    run += r.run_ns;
    wait += r.wait_ns;
  }
  CHECK(elapsed == 30);
  CHECK(run == 50);
  CHECK(wait == 25);
}

TEST_CASE("counters that went backwards give no split and become the new baseline") {
  CpuSplit split;
  reading(split, 1000, 500, 400, 30);
  CHECK_FALSE(reading(split, 2000, 600, 300, 30).has_cpu);
  check_split(reading(split, 3000, 700, 350, 40), 1000, 50, 10);
}

TEST_CASE("a thread never read has no split even when its clock is unchanged") {
  CpuSplit split;
  CHECK_FALSE(unchanged(split, 1000).has_cpu);
}
