// End-to-end: mode=calltree's clock thread (clock=tick, Clock.java) lives only as long as the
// recording. After duration= the program runs on at full speed, so no thread of the agent's may
// still wake every millisecond; and a later start of the clock must leave exactly one ticker.
// tests/agent/java/ClockThread.java counts the live threads named bottlenecks-clock.

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "agent_harness.h"
#include "calltree_profile.h"

namespace {

bn::test::JavaRun run_clock_thread(const std::string& check, const std::string& options) {
  bn::test::JavaRunOptions o;
  o.main_class = "ClockThread";
  o.args = {check};
  o.agent_options = "mode=calltree,strict,quiet," + options;
  bn::test::JavaRun r = bn::test::run_java(o);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  return r;
}

}  // namespace

TEST_CASE("the clock thread ends with a call-tree recording that duration= ended, while the program runs on") {
  const auto file = bn::test::work_dir("ClockEnds-" + std::to_string(getpid())) / "run.bnp";
  run_clock_thread("ends", "duration=1s,file=" + file.string());
  const auto calls = bn::test::read_calls(file);
  CHECK(calls.tree.metadata().find_extra("stopped_by") == "duration");
  CHECK(bn::test::node_at(calls.tree, {"ClockThread.main", "ClockThread.reaches"}).has_value());
}

TEST_CASE("stopping the clock and starting it again leaves exactly one clock thread") {
  const auto file = bn::test::work_dir("ClockRestart-" + std::to_string(getpid())) / "run.bnp";
  run_clock_thread("restart", "file=" + file.string());
  CHECK_FALSE(bn::test::load(file).loaded.unfinished);
}
