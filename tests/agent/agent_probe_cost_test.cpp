// A call-tree recording opened as a user would: the REPL searches time less the probes'
// estimated cost (calltree/model's probe_cost.h), says so in its header, and keeps the time as
// recorded one `set metric` away. The program is chosen so that probes are most of its
// exclusive times; the checks are what the estimate guarantees, not how close it comes.

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent_harness.h"
#include "repl_json.h"

using nlohmann::json;

namespace {

// Every output of `command`, in order.
std::vector<json> all_of(const std::vector<json>& outputs, const std::string& command) {
  std::vector<json> found;
  for (const json& j : outputs)
    if (j.value("command", "") == command) found.push_back(j);
  return found;
}

long long integer(const json& amount) { return std::stoll(amount.get<std::string>()); }

}  // namespace

TEST_CASE("a call-tree recording opens on time less the probes' estimated cost") {
  const std::filesystem::path dir = bn::test::work_dir("probe-cost");
  const std::filesystem::path file = dir / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = "Chatty";
  o.args = {"30000000"};
  o.agent_options = "mode=calltree,quiet,file=" + file.string();
  const auto run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);

  const auto opened = bn::test::repl_json(file, {}, "suggest");
  const json metric = bn::test::only(opened, "metric");
  CHECK(metric["metric"] == "time-less-probes");
  CHECK(metric["metrics"] == json::array({"time-less-probes", "time", "calls"}));
  const std::string header = metric["header"].dump();
  CHECK(header.find("estimated cost") != std::string::npos);
  CHECK(header.find("per instrumented call") != std::string::npos);

  // The time as recorded is one command away; the estimate only ever takes time away.
  const auto both = bn::test::repl_json(file, {}, "path Chatty.main; set metric time; path Chatty.main");
  const std::vector<json> paths = all_of(both, "path");
  REQUIRE(paths.size() == 2);
  CHECK(paths[0]["metric"] == "time-less-probes");
  CHECK(paths[1]["metric"] == "time");
  CHECK(integer(paths[0]["summary"]["base"]) <= integer(paths[1]["summary"]["base"]));
  // 30 million calls of a few nanoseconds each: the estimate removes some time.
  CHECK(integer(paths[0]["total"]) < integer(paths[1]["total"]));

  // `info` describes the file as recorded.
  const auto info = bn::test::run_command({bn::test::kCli, "info", file.string()}, std::chrono::seconds(60));
  REQUIRE(info.exit_code == 0);
  CHECK(info.out.find("time-less-probes") == std::string::npos);
}
