// End-to-end: however the JVM ends, the profile stays readable; bad options never stop a JVM
// unless strict=true; the agent can attach to a running JVM.

#include <doctest/doctest.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <sstream>
#include <string>
#include <thread>

#include "agent_harness.h"

namespace ct = bn::calltree;
using bn::test::JavaRunOptions;
using namespace std::chrono_literals;

namespace {

struct Ended {
  bn::test::JavaRun run;
  std::filesystem::path file;
};

Ended end_by(const std::string& how, int signal, const std::string& extra_options = "") {
  Ended e;
  e.file = bn::test::work_dir("Ending-" + how) / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Ending";
  o.args = {signal != 0 ? "wait" : how};
  o.agent_options = "file=" + e.file.string() + ",interval=10ms" + extra_options;
  o.signal = signal;
  o.signal_after = 1500ms;
  e.run = bn::test::run_java(o);
  return e;
}

void check_complete(const Ended& e) {
  INFO("stderr: " << e.run.err);
  CHECK_FALSE(e.run.timed_out);
  const auto p = bn::test::load(e.file);  // throws unless the END chunk is there
  CHECK_FALSE(p.loaded.unfinished);
  CHECK(p.samples.ticks.size() >= 5);  // 0.6 s or more at 10 ms, on a possibly loaded machine
  CHECK(p.loaded.tree.total_cost() == static_cast<ct::Cost>(bn::test::java_samples(p.samples)));
  const auto& m = p.loaded.tree.metadata();
  CHECK(m.duration_ns > 0);
  CHECK(m.find_extra("overhead_percent").has_value());
  CHECK(m.find_extra("samples") == std::to_string(bn::test::java_samples(p.samples)));
  // The CPUs the JVM may run on: the test's own affinity mask, which the JVM inherits.
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  REQUIRE(sched_getaffinity(0, sizeof cpus, &cpus) == 0);
  CHECK(m.find_extra("cpus") == std::to_string(CPU_COUNT(&cpus)));
  CHECK(e.run.err.find("bottlenecks agent: wrote") != std::string::npos);
}

}  // namespace

TEST_CASE("System.exit from a worker thread leaves a complete profile") {
  const Ended e = end_by("exit", 0);
  CHECK(e.run.exit_code == 3);
  check_complete(e);
}

TEST_CASE("an uncaught exception in main leaves a complete profile") {
  const Ended e = end_by("throw", 0);
  CHECK(e.run.exit_code == 1);
  check_complete(e);
}

TEST_CASE("SIGTERM leaves a complete profile") {
  const Ended e = end_by("term", SIGTERM);
  CHECK(e.run.exit_code == 143);
  check_complete(e);
}

TEST_CASE("SIGKILL leaves a prefix that decodes up to the last flush") {
  const Ended e = end_by("kill", SIGKILL, ",flush=100ms");
  CHECK(e.run.exit_code == -SIGKILL);
  CHECK_THROWS(bn::calltree::read_profile(e.file));
  const auto p = bn::test::load(e.file, true);
  CHECK(p.loaded.unfinished);
  CHECK(p.samples.ticks.size() >= 5);
  CHECK(p.loaded.tree.total_cost() >= static_cast<ct::Cost>(bn::test::java_samples(p.samples)));
  CHECK(p.loaded.tree.metadata().mode == "sample");
}

TEST_CASE("classes unloaded while recording keep their names and the JVM exits cleanly") {
  const auto file = bn::test::work_dir("unload") / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Unload";
  o.jvm_args = {"-Xlog:class+unload=info"};
  o.args = {bn::test::compiled("Plugin").string(), "12"};
  o.agent_options = "file=" + file.string() + ",interval=5ms,flush=100ms";
  const auto r = bn::test::run_java(o);
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("unloading class Plugin") != std::string::npos);  // it really was unloaded
  const auto p = bn::test::load(file);
  const auto spin = p.loaded.tree.find_method("Plugin.spin");
  REQUIRE(spin.has_value());
  CHECK(p.loaded.tree.nodes_of(*spin).size() >= 1);
}

TEST_CASE("signalled stack walks survive GC, exceptions, deoptimisation and stubs at 1 ms") {
  const auto file = bn::test::work_dir("churn") / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Churn";
  o.jvm_args = {"-Xmx64m", "-Xlog:gc:stdout", "-XX:+PrintCompilation"};
  o.args = {"3", "2500"};
  o.agent_options = "file=" + file.string() + ",interval=1ms,flush=100ms,quiet";
  const auto r = bn::test::run_java(o);
  INFO("stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Pause Young") != std::string::npos);       // it really collected garbage
  CHECK(r.out.find("made not entrant") != std::string::npos);  // and deoptimised compiled code
  const auto p = bn::test::load(file);
  CHECK_FALSE(p.loaded.unfinished);
  const auto extra = [&](const char* key) {
    const auto v = p.loaded.tree.metadata().find_extra(key);
    REQUIRE(v.has_value());
    return std::stoull(std::string(*v));
  };
  CHECK(p.loaded.tree.metadata().find_extra("stack_method") == "signal");
  // Hundreds of signals answered, whatever share of the answers was usable (fewer are here
  // than in code that computes: a signal that lands inside the VM finds no walkable frame and
  // is asked again; docs/recorder.md).
  CHECK(extra("signal_stacks") + extra("signal_retries") + extra("signal_fallbacks") >= 200);
  CHECK(extra("signal_stacks") >= 20);
  CHECK(extra("dropped_samples") == 0);
  CHECK(p.loaded.tree.find_method("Churn.step").has_value());
  CHECK(p.loaded.tree.total_cost() == static_cast<ct::Cost>(bn::test::java_samples(p.samples)));
}

TEST_CASE("a bad option names itself and the program runs unprofiled") {
  const auto file = bn::test::work_dir("bad-option") / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Hot";
  o.args = {"100"};
  o.agent_options = "file=" + file.string() + ",interval=abc";
  const auto r = bn::test::run_java(o);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("'interval=abc'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(file));
}

TEST_CASE("with strict=true a bad option stops the JVM") {
  JavaRunOptions o;
  o.main_class = "Hot";
  o.args = {"100"};
  o.agent_options = "strict,bogus=1";
  const auto r = bn::test::run_java(o);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("'bogus=1'") != std::string::npos);
}

TEST_CASE("the agent attaches to a running JVM and records for the requested duration") {
  const auto dir = bn::test::work_dir("attach");
  const auto file = dir / "attached.bnp";
  // The target runs with no agent; jcmd loads it after start-up.
  bn::test::AttachTarget target("attach-test");
  const std::string pid = target.pid();
  REQUIRE_FALSE(pid.empty());
  const auto load = bn::test::load_agent(pid, "file=" + file.string() + ",interval=10ms,duration=1s");
  INFO("jcmd: " << load.out << load.err);
  CHECK(load.exit_code == 0);
  // On a loaded machine starting jcmd twice takes seconds, so the target is ended only once
  // the recording (duration=1s) has completed the file, or after 30 s.
  for (int i = 0; i < 300 && !bn::test::is_complete(file); ++i) std::this_thread::sleep_for(100ms);
  INFO("target stderr: " << target.end().err);
  const auto p = bn::test::load(file);
  CHECK_FALSE(p.loaded.unfinished);
  CHECK(p.samples.ticks.size() >= 10);
  CHECK(p.samples.ticks.size() <= 200);  // duration=1s ended it long before the JVM
  const auto main = bn::test::thread_named(p.samples, "main");
  REQUIRE(main.has_value());
  CHECK(p.samples.threads[*main].os_tid != 0);  // matched by name: main runs in a "java" thread
}
