// End-to-end: real JVMs recorded with `bottlenecks record`, searched with `bottlenecks repl
// --view ... --json`. The machine may be loaded, so the tests assert what
// the views contain, never how large it is.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "agent_harness.h"
#include "repl_json.h"

using namespace std::chrono_literals;
using bn::test::only;
using nlohmann::json;

namespace {

// Records `main_class` from `classes` for about `seconds` at 10 ms.
std::filesystem::path record(const std::string& name, const std::filesystem::path& classes,
                             const std::string& main_class, const std::vector<std::string>& args) {
  const auto file = bn::test::work_dir("views-" + name) / "run.bnp";
  std::vector<std::string> argv{
      bn::test::kCli, "record",         "-o",          file.string(), "--interval",
      "10ms",         "--agent",        BN_AGENT_PATH, "--",          bn::test::java_tool("java"),
      "-cp",          classes.string(), main_class};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = bn::test::run_command(argv, 120s);
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  return file;
}

bool has_path(const json& rows, const std::vector<std::string>& path) {
  for (const json& row : rows)
    if (row["path"].get<std::vector<std::string>>() == path) return true;
  return false;
}

std::string recorded_cpus(const std::filesystem::path& file) {
  const auto p = bn::test::load(file);
  return std::string(p.loaded.tree.metadata().find_extra("cpus").value_or("1"));
}

}  // namespace

TEST_CASE(
    "the contended-monitor sample's Thread View shows :MONITOR for the senders, with the composer and its "
    "method under it") {
  const auto file = record("mail", bn::test::compiled_sample("mail", "mail.Mailroom"), "mail.Mailroom", {"3"});
  for (const char* model : {"measured", "paper"}) {
    CAPTURE(model);
    const auto out =
        bn::test::repl_json(file, {"--view", "thread mail.Sender", "--model", model},
                            "path :MONITOR;:THREAD mail.Composer\npath :THREAD mail.Composer;@mail.Composer.run;"
                            "@mail.Mailbox.put");
    std::vector<json> paths;
    for (const json& j : out)
      if (j.value("command", "") == "path") paths.push_back(j);
    REQUIRE(paths.size() == 2);
    // The senders waited to enter the mailbox's monitor, held by the composer ...
    CHECK(paths[0]["ok"] == true);
    CHECK(paths[0]["view"] == "thread mail.Sender");
    CHECK(paths[0]["summary"]["cum"] != "0");
    CHECK(
        has_path(paths[0]["nearby"]["bottom_extensions"], {":MONITOR", ":THREAD mail.Composer", "@mail.Composer.run"}));
    // ... which was inside Mailbox.put (rendering the message while holding it).
    CHECK(paths[1]["ok"] == true);
    CHECK(paths[1]["summary"]["cum"] != "0");
  }
}

TEST_CASE("more runnable CPU-bound threads than CPUs show :LOAD, credited to the other workers") {
  const auto file = record("crowd", bn::test::compiled("Crowd"), "Crowd", {"3000"});
  const std::string cpus = "cpus " + recorded_cpus(file);
  for (const std::string& model : {std::string("paper"), cpus, std::string("measured")}) {
    CAPTURE(model);
    const auto out = bn::test::repl_json(file, {"--view", "thread Crowd$Worker", "--model", model}, "path :LOAD");
    const json load = only(out, "path");
    CHECK(load["ok"] == true);
    CHECK(load["summary"]["cum"] != "0");
    if (model != "measured")  // measured queue time may also come from other processes (:UNKNOWN)
      CHECK(has_path(load["nearby"]["bottom_extensions"], {":LOAD", ":THREAD Crowd$Worker"}));
  }
}

TEST_CASE("a thread reniced lower than CPU-bound threads of nice 0 shows :PRIO, credited to them") {
  const auto file = record("reniced", bn::test::compiled("Reniced"), "Reniced", {"3000"});
  const std::string cpus = "cpus " + recorded_cpus(file);
  for (const std::string& model : {std::string("paper"), cpus, std::string("measured")}) {
    CAPTURE(model);
    const auto out = bn::test::repl_json(file, {"--view", "thread Reniced$Low", "--model", model}, "path :PRIO");
    const json header = only(out, "view");
    for (const json& line : header["header"])
      CHECK(line.get<std::string>().find(":PRIO is empty") == std::string::npos);
    const json prio = only(out, "path");
    CHECK(prio["ok"] == true);
    CHECK(prio["summary"]["cum"] != "0");
    CHECK(has_path(prio["nearby"]["bottom_extensions"], {":PRIO", ":THREAD Reniced$Hog"}));
  }
}
