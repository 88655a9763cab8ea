// The causal mode end to end on programs whose answer is known by construction (seed 003's
// cases), recorded by a real JVM and read by the REPL's `causal`. The checks are what virtual
// speedup guarantees on a loaded machine, orderings and signs with margins, never exact slopes:
// every experiment's rate of progress is measured against experiments at 0% interleaved with
// it, so a machine that is slow throughout slows both alike.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent_harness.h"
#include "repl_json.h"

using nlohmann::json;

namespace {

// Records `main_class` in mode=causal, progress counted as `points` (agent options, e.g.
// "progress=A.b"), and returns the file.
std::filesystem::path record_causal(const std::string& main_class, std::vector<std::string> args,
                                    const std::vector<std::string>& targets, const std::string& points) {
  const std::filesystem::path file = bn::test::work_dir("causal-" + main_class) / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = main_class;
  o.args = std::move(args);
  o.agent_options = "mode=causal,quiet,speedups=0:50," + points + ",file=" + file.string();
  for (const std::string& t : targets) o.agent_options += ",target=" + t;
  o.timeout = std::chrono::seconds(120);
  const auto run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);
  return file;
}

// The REPL's answer to `command` (a `causal` command, after others if any) on `file`.
json causal_of(const std::filesystem::path& file, const std::string& command) {
  return bn::test::only(bn::test::repl_json(file, {}, command), "causal");
}

// The REPL's `causal` answer (after `before`, REPL commands run first) on a new recording.
json causal_run(const std::string& main_class, std::vector<std::string> args, const std::vector<std::string>& targets,
                const std::string& points, const std::string& before = "") {
  return causal_of(record_causal(main_class, std::move(args), targets, points), before + "causal");
}

// The target whose call sequence is `method` alone.
const json& target(const json& causal, const std::string& method) {
  for (const json& t : causal["targets"])
    if (t.contains("path") && t["path"] == json::array({method})) return t;
  FAIL("no target " << method << " in " << causal.dump());
  static const json none;
  return none;
}

// Its point at virtual speedup 50%.
const json& at_half(const json& t) {
  for (const json& p : t["points"])
    if (p["speedup"].get<double>() == 0.5) return p;
  FAIL("no point at 50% in " << t.dump());
  static const json none;
  return none;
}

// What one recording missed of a test's checks, as text: empty when it passed them all.
class Misses {
 public:
  explicit Misses(const json& causal) : causal_(causal.dump()) {}
  void expect(bool holds, const std::string& what) {
    if (!holds) missed_ += what + "; ";
  }
  std::string text() const { return missed_.empty() ? "" : missed_ + "in " + causal_; }

 private:
  std::string causal_;
  std::string missed_;
};

// A prediction is an estimate from a few dozen experiments on a machine whose load the test does
// not control (ctest runs other tests beside these, on two CPUs): when a recording misses a
// check, the program is recorded again, and the test fails only if the second misses too. The
// faults these checks guard against miss them by far more, in every recording.
void in_one_of_two(const std::function<std::string()>& record_and_check) {
  const std::string first = record_and_check();
  if (first.empty()) return;
  MESSAGE("the first recording missed, recorded again: " << first);
  const std::string second = record_and_check();
  CHECK_MESSAGE(second.empty(), second);
}

}  // namespace

TEST_CASE("two workers joined per round: speeding the long one pays, the short one nothing") {
  in_one_of_two([] {
    const json causal = causal_run("CausalRounds", {"24"}, {"CausalRounds.longWork", "CausalRounds.shortWork"},
                                   "progress=CausalRounds.roundDone");
    Misses m(causal);
    m.expect(causal["progress"] == "CausalRounds.roundDone", "the progress point");
    const double long_half = at_half(target(causal, "CausalRounds.longWork"))["program_speedup"].get<double>();
    const double short_half = at_half(target(causal, "CausalRounds.shortWork"))["program_speedup"].get<double>();
    // By construction: 50% off the long worker (twice the short one) halves each round; 50% off
    // the short one changes nothing. On an idle machine the long one reads about 0.4 against 0;
    // beside a busy loop on every core and another test, where the workers wait for CPUs too and
    // the round's length is the scheduler's as much as the program's, 0.08 to 0.2 against -0.07
    // to 0.05 (a pause takes CPU time off the target, not its wait for a CPU); once, with a build
    // beside it too, 0.24 against 0.10: pausing the short worker then frees a CPU for the long one.
    m.expect(long_half > 0.04, "the long worker pays over 0.04");
    m.expect(long_half - short_half > 0.03, "the long worker pays 0.03 more than the short one");
    m.expect(std::abs(short_half) < 0.15, "the short worker pays within 0.15 of nothing");
    // And the list ranks the long one first.
    m.expect(causal["targets"][0]["path"] == json::array({"CausalRounds.longWork"}), "the long worker ranked first");
    return m.text();
  });
}

TEST_CASE("a parallel phase and a serial phase of equal length: their curves agree") {
  in_one_of_two([] {
    const json causal = causal_run("CausalPhases", {"24"}, {"CausalPhases.parallelWork", "CausalPhases.serialWork"},
                                   "progress=CausalPhases.roundDone");
    Misses m(causal);
    const json& parallel = at_half(target(causal, "CausalPhases.parallelWork"));
    const json& serial = at_half(target(causal, "CausalPhases.serialWork"));
    const double p = parallel["program_speedup"].get<double>();
    const double s = serial["program_speedup"].get<double>();
    // Each phase is half of a round: 50% off either shortens the round by a quarter.
    // Both pay (about 0.22 each on an idle machine; beside a busy loop on every core, 0.14 and 0.04).
    m.expect(p > 0.02, "the parallel phase pays");
    m.expect(s > 0.02, "the serial phase pays");
    // The two predictions agree: their intervals overlap, or the parallel phase reads at most 8
    // points below the serial one. Above it, by any amount, is what a loaded 2-CPU machine does:
    // the parallel phase needs both CPUs, so beside other tests it really lasts longer than the
    // serial one and pays more when sped up (21% against 16%, and 22% against 14%, in CI runs with
    // other tests beside it). The fault this guards against errs the other way: a wrong accounting
    // of delays in code every thread runs at once under-credits the parallel phase (it read 5%
    // against 22% when samples were charged at the scheduler's tick).
    const bool overlap = parallel["low"].get<double>() <= serial["high"].get<double>() &&
                         serial["low"].get<double>() <= parallel["high"].get<double>();
    m.expect(overlap || p >= s - 0.08, "the parallel phase agrees with the serial one or reads above it");
    return m.text();
  });
}

TEST_CASE("threads contending for a monitor: the critical section pays more than its cost share") {
  in_one_of_two([] {
    // Wall time (`set states all`): a sampler sees each of the 8 threads inside the critical
    // section an eighth of the time and waiting at the monitor most of the rest.
    const json causal = causal_run("CausalContention", {"24", "8", "300", "100"},
                                   {"CausalContention.critical", "CausalContention.ownWork"},
                                   "progress=CausalContention.itemDone", "set states all; ");
    Misses m(causal);
    const json& critical = target(causal, "CausalContention.critical");
    const json& own = target(causal, "CausalContention.ownWork");
    const double share = critical["cost_share"].get<double>();
    m.expect(share > 0.0, "the critical section has samples");
    m.expect(share < 0.4, "the critical section's share is under 0.4");
    // The monitor serialises the program, so half off the critical section gains far more than
    // its share of the samples would suggest, and more than half off the threads' own work.
    const double critical_half = at_half(critical)["program_speedup"].get<double>();
    m.expect(critical_half > share, "the critical section pays more than its share");
    m.expect(critical_half > at_half(own)["program_speedup"].get<double>(), "it pays more than the own work");
    return m.text();
  });
}

TEST_CASE("a request of parts A and B: speeding A shortens its latency, thinking and housekeeping do not") {
  in_one_of_two([] {
    const std::string latency = "CausalLatency.received:CausalLatency.replied";
    const std::filesystem::path file = record_causal(
        "CausalLatency", {"36"}, {"CausalLatency.partA", "CausalLatency.think", "CausalLatency.housekeeping"},
        "latency=" + latency + ",progress=CausalLatency.replied");
    const json causal = causal_of(file, "causal --progress " + latency);
    Misses m(causal);
    m.expect(causal["progress"] == latency, "the latency point");
    m.expect(causal["progress_kind"] == "latency", "a latency kind");
    const double a = at_half(target(causal, "CausalLatency.partA"))["program_speedup"].get<double>();
    const double think = at_half(target(causal, "CausalLatency.think"))["program_speedup"].get<double>();
    const double keeper = at_half(target(causal, "CausalLatency.housekeeping"))["program_speedup"].get<double>();
    // By construction at 50%: A 0.375, thinking and housekeeping 0. On a loaded machine less for
    // A: a virtual speedup takes s off the CPU time A ran, not off the time it waited for a CPU
    // (beside other tests and builds on 2 CPUs, load 4-6: A 0.15 to 0.33, thinking 0.01 to 0.09,
    // each ±0.1 to 0.2). Thinking reads above 0 there: its experiments pause housekeeping, which
    // then leaves a CPU to the requests.
    m.expect(a > 0.08, "part A pays over 0.08");
    m.expect(a - think > 0.05, "part A pays 0.05 more than thinking");
    m.expect(std::abs(think) < 0.15, "thinking pays within 0.15 of nothing");
    // Housekeeping's pauses stretch the requests in wall time; in virtual time they do not. A
    // little below 0 all the same, as at a throughput point: each pause of the request loop costs
    // it a wake-up besides its length (-0.07 in the run above, -0.08 at the throughput point).
    m.expect(keeper > -0.15, "housekeeping costs the latency under 0.15");
    m.expect(keeper < 0.1, "housekeeping pays under 0.1");
    // At the throughput point of the same run, thinking pays: it is a third of the loop.
    const json replies = causal_of(file, "causal --progress CausalLatency.replied");
    Misses r(replies);
    r.expect(replies["progress_kind"] == "throughput", "a throughput kind");
    r.expect(at_half(target(replies, "CausalLatency.think"))["program_speedup"].get<double>() > 0.03,
             "thinking pays at the throughput point");
    return m.text() + r.text();
  });
}

TEST_CASE("maxoverhead= lengthens the causal sampling's period while the handlers cost more") {
  const std::filesystem::path file = bn::test::work_dir("causal-maxoverhead") / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = "CausalRounds";
  o.args = {"6"};
  // A bound no stack walk meets: the period must grow after each experiment.
  o.agent_options =
      "mode=causal,quiet,warmup=100ms,maxoverhead=0.001%,target=CausalRounds.longWork,"
      "progress=CausalRounds.roundDone,file=" +
      file.string();
  o.timeout = std::chrono::seconds(120);
  const auto run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);
  const auto profile = bn::test::load(file);
  const auto& m = profile.loaded.tree.metadata();
  REQUIRE(m.find_extra("causal.final_period_ns").has_value());
  CHECK(std::stoll(std::string(*m.find_extra("causal.final_period_ns"))) > 1'000'000);
  CHECK(std::stoll(std::string(*m.find_extra("causal.period_ns"))) == 1'000'000);
}
