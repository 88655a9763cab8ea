// End-to-end: call-tree recordings one after the other in one JVM (DYPER, seed 001: detail one
// set of methods, look, then detail others). tests/agent/java/Phases.java runs a phase of calls
// known by construction each time the test asks; each recording, with options of its own, must
// hold exactly the calls of its phase, none of an earlier recording's, though every thread's
// tree (CallTreeRuntime) keeps its earlier nodes.

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <thread>

#include "agent_harness.h"
#include "calltree_profile.h"

namespace ct = bn::calltree;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// Phases.java's constants the second phase uses (the first runs under trivial=skip, where its
// loops' callee has no probes; the third names one method).
constexpr ct::Cost kPhaseSecond = 70, kWorkerSecond = 13, kLingering = 17;

// Calls recorded at a path of the profile (0 if the path is not in it).
ct::Cost calls_on(const ct::LoadedProfile& p, std::initializer_list<std::string_view> path) {
  const auto node = bn::test::node_at(p.tree, path);
  return node ? p.tree.cost(*node) : 0;
}

ct::Cost all_calls(const ct::LoadedProfile& p) {
  ct::Cost calls = 0;
  for (ct::NodeId n = 0; n < p.tree.node_count(); ++n) calls += p.tree.cost(n);
  return calls;
}

// Polls for `file` for up to two minutes (a loaded machine is slow; never asserted on time).
bool appears(const fs::path& file, bool complete_profile = false) {
  for (int i = 0; i < 1200; ++i) {
    if (complete_profile ? bn::test::is_complete(file) : fs::exists(file)) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

}  // namespace

TEST_CASE("one JVM, three call-tree recordings one after the other: each holds exactly the calls made while it ran") {
  const auto dir = bn::test::work_dir("calltree-again-" + std::to_string(getpid()));
  bn::test::AttachTarget target("calltree-again", "Phases", {dir.string()});
  const std::string pid = target.pid();
  REQUIRE_FALSE(pid.empty());
  const auto started = [&](const std::string& options) {
    const auto r = bn::test::load_agent(pid, options);
    INFO("jcmd: " << r.out << r.err);
    return r.out.find("return code: 0") != std::string::npos;
  };
  const auto run_phase = [&](const std::string& n) {
    std::ofstream(dir / ("go" + n)).close();
    return appears(dir / ("done" + n));
  };

  // The first: trivial=skip, the default (Phases.leaf has no probes), ended by `stop`.
  const auto first_file = dir / "first.bnp";
  REQUIRE(started("mode=calltree,quiet,file=" + first_file.string()));
  REQUIRE(run_phase("1"));
  REQUIRE(started("stop,file=" + first_file.string()));
  const auto first = bn::test::read_calls(first_file);
  CHECK(calls_on(first, {"Phases.work"}) == 1);
  CHECK(calls_on(first, {"Phases.phase1"}) == 1);
  CHECK(calls_on(first, {"Phases.phase1", "Phases.work"}) == 2);
  CHECK(calls_on(first, {"Phases.phase1", "Phases.onlyFirst"}) == 1);
  CHECK(calls_on(first, {"Phases.phase1", "Phases$Worker.<init>"}) == 1);
  CHECK(calls_on(first, {"Phases$Worker.run"}) == 1);
  CHECK(calls_on(first, {"Phases$Worker.run", "Phases.work"}) == 1);
  CHECK(calls_on(first, {"Phases.phase1", "Phases$Lingering.<init>"}) == 1);
  CHECK(calls_on(first, {"Phases$Lingering.run"}) == 1);  // still running: it waits for phase 2
  CHECK(all_calls(first) == 10);                          // and no Phases.leaf

  // The trees' bound stays the first recording's: another is refused, with the reason.
  const auto bound =
      bn::test::run_command({bn::test::kCli, "record", "--pid", pid, "--mode", "calltree", "--tree-memory", "1m",
                             "--duration", "1s", "-o", (dir / "bound.bnp").string(), "--agent", BN_AGENT_PATH},
                            50s);
  INFO("record: " << bound.err);
  CHECK(bound.exit_code == 1);
  CHECK(bound.err.find("treememory=1048576 differs from this JVM's ") != std::string::npos);

  // The second: trivial=count, so Phases.leaf is instrumented; the same paths as the first's
  // ([Phases.work], [Phases$Worker.run, Phases.work]) hold only this phase's calls.
  const auto second_file = dir / "second.bnp";
  REQUIRE(started("mode=calltree,quiet,trivial=count,file=" + second_file.string()));
  REQUIRE(run_phase("2"));
  REQUIRE(started("stop,file=" + second_file.string()));
  const auto second = bn::test::read_calls(second_file);
  CHECK(calls_on(second, {"Phases.work"}) == 1);
  CHECK(calls_on(second, {"Phases.work", "Phases.leaf"}) == kPhaseSecond);
  CHECK(calls_on(second, {"Phases.phase2"}) == 1);
  CHECK(calls_on(second, {"Phases.phase2", "Phases.work"}) == 1);
  CHECK(calls_on(second, {"Phases.phase2", "Phases.work", "Phases.leaf"}) == kPhaseSecond);
  CHECK(calls_on(second, {"Phases.phase2", "Phases.onlySecond"}) == 1);
  CHECK(calls_on(second, {"Phases.phase2", "Phases$Worker.<init>"}) == 1);
  CHECK(calls_on(second, {"Phases$Worker.run"}) == 1);
  CHECK(calls_on(second, {"Phases$Worker.run", "Phases.work"}) == 1);
  CHECK(calls_on(second, {"Phases$Worker.run", "Phases.work", "Phases.leaf"}) == kWorkerSecond);
  // The lingering frame's node is the first recording's: in this profile as the ancestor of its
  // new calls, with no call of its own.
  CHECK(bn::test::node_at(second.tree, {"Phases$Lingering.run"}));
  CHECK(calls_on(second, {"Phases$Lingering.run"}) == 0);
  CHECK(calls_on(second, {"Phases$Lingering.run", "Phases.work"}) == 1);
  CHECK(calls_on(second, {"Phases$Lingering.run", "Phases.work", "Phases.leaf"}) == kLingering);
  CHECK_FALSE(bn::test::node_at(second.tree, {"Phases.phase1"}));
  CHECK(all_calls(second) == 8 + 2 * kPhaseSecond + kWorkerSecond + kLingering);

  // The third: methods= names Phases.work alone, and duration= counts from this recording's first
  // call. The phase starts 4 s after the attach: a duration of 3 s counted from an earlier
  // recording's first call (before the attach) would have ended this one before it.
  const auto labels = dir / "work.labels";
  std::ofstream(labels) << "# bottlenecks labels v1\nlabel work\n  Phases.work\n";
  const auto third_file = dir / "third.bnp";
  REQUIRE(started("mode=calltree,quiet,duration=3s,methods=" + labels.string() + ",file=" + third_file.string()));
  std::this_thread::sleep_for(4s);
  REQUIRE(run_phase("3"));
  REQUIRE(appears(third_file, true));
  const auto third = bn::test::read_calls(third_file);
  CHECK(calls_on(third, {"Phases.work"}) == 2);  // main's call, and phase3's, which has no probes now
  CHECK(all_calls(third) == 2);
  const auto& meta = third.tree.metadata();
  CHECK(meta.find_extra("stopped_by") == "duration");
  CHECK(meta.find_extra("instrumented_classes") == "1");  // this recording's, not the JVM's
  CHECK(meta.find_extra("instrumented_methods") == "1");
  CHECK(target.running());
}
