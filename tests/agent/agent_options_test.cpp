// End-to-end: the options for long-running programs and bounded overhead (docs/recorder.md).

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <string>

#include "agent_harness.h"
#include "bn/agent/option_table.h"

namespace ct = bn::calltree;
using bn::test::JavaRunOptions;
using namespace std::chrono_literals;

namespace {

std::int64_t extra_int(const ct::Metadata& m, const char* key) {
  const auto v = m.find_extra(key);
  REQUIRE(v.has_value());
  return std::stoll(std::string(*v));
}

}  // namespace

TEST_CASE("every mode of the option table records a profile with its engine") {
  // The modes are the option table's and the engines the agent's (core/engine_factory.cpp): a
  // mode without an engine row would be parsed and then refused at load.
  for (const bn::agent::Mode& mode : bn::agent::modes()) {
    INFO(mode.name);
    const auto file = bn::test::work_dir("mode_" + std::string(mode.name)) / "run.bnp";
    JavaRunOptions o;
    o.main_class = "Hot";
    o.args = {"300"};
    o.agent_options = "strict,quiet,mode=" + std::string(mode.name) + ",file=" + file.string();
    // The causal mode needs a progress point, and records beside the sampler (its companion).
    std::string recorded(mode.name);
    if (mode.name == "causal") {
      o.agent_options += ",progress=Hot.main,warmup=100ms";
      recorded = "sample+causal";
    }
    const auto r = bn::test::run_java(o);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(bn::test::load(file).loaded.tree.metadata().mode == recorded);
  }
}

TEST_CASE("maxoverhead stretches the sampling interval to keep the agent's cost bounded") {
  const auto file = bn::test::work_dir("maxoverhead") / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Busy";
  o.args = {"3", "2000"};
  o.agent_options = "file=" + file.string() + ",interval=1ms,maxoverhead=0.5%";
  const auto r = bn::test::run_java(o);
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const auto p = bn::test::load(file);
  const ct::Metadata& m = p.loaded.tree.metadata();
  CHECK(extra_int(m, "stretched_ticks") > 0);
  CHECK(extra_int(m, "mean_interval_ns") > 1'000'000);
  // Unbounded, 1 ms would mean about 2000 ticks in 2 s.
  CHECK(p.samples.ticks.size() < 1000);
  CHECK(m.find_extra("max_overhead_percent") == "0.500");
  CHECK(r.err.find("overhead") != std::string::npos);
}

TEST_CASE("delay postpones the first sample") {
  const auto file = bn::test::work_dir("delay") / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Hot";
  o.args = {"2000"};
  o.agent_options = "file=" + file.string() + ",interval=10ms,delay=1s,quiet";
  REQUIRE(bn::test::run_java(o).exit_code == 0);
  const auto p = bn::test::load(file);
  REQUIRE_FALSE(p.samples.ticks.empty());
  CHECK(p.samples.ticks.front().time_ns >= 1'000'000'000);
  CHECK(p.samples.ticks.size() >= 10);
}

TEST_CASE("snapshot rewrites a complete profile while the program runs") {
  const auto file = bn::test::work_dir("snapshot") / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Ending";
  o.args = {"wait"};
  o.agent_options = "file=" + file.string() + ",interval=10ms,snapshot=300ms";
  o.signal = SIGKILL;  // only the snapshot and the flushed prefix survive
  o.signal_after = 1500ms;
  bn::test::run_java(o);
  const auto snapshot = ct::read_profile(file.string() + ".snapshot");
  CHECK_FALSE(snapshot.unfinished);
  CHECK(snapshot.tree.total_cost() >= 10);
  CHECK(snapshot.tree.find_method("Ending.spin").has_value());
  CHECK(snapshot.tree.metadata().mode == "sample");
}
