// End-to-end on a real program nobody here wrote: Debian's Xalan running an XSLT report over
// generated orders, recorded with `bottlenecks record` as a user would, then opened as a user
// would (`repl FILE -c suggest`, HighBase, autolabel, threads). What it asks is what a user
// meets first: the application's code on the first screen, not idle JVM threads. The machine
// may be loaded, so the checks are ranks and presence, never shares or times. One recording
// serves every check (no SUBCASE, which would record Xalan again for each).

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent_harness.h"
#include "repl_json.h"

using namespace std::chrono_literals;
using nlohmann::json;

namespace {

namespace fs = std::filesystem;

// The last frame of a row's path.
std::string leaf(const json& row) { return row["path"].back().get<std::string>(); }

// Frames of threads that wait rather than work: what a first screen must not lead with.
bool is_idle_wait(const std::string& frame) {
  static const std::vector<std::string> idle = {"java.lang.Object.wait",
                                                "java.lang.ref.ReferenceQueue.remove",
                                                "java.lang.Thread.sleep",
                                                "jdk.internal.misc.Unsafe.park",
                                                "java.lang.ref.Reference.waitForReferencePendingList",
                                                "[no Java frames]"};
  return std::find(idle.begin(), idle.end(), frame) != idle.end();
}

bool is_xalan(const std::string& frame) { return frame.starts_with("org.apache."); }

int lines_of(const fs::path& file) {
  std::ifstream in(file);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
  return n;
}

}  // namespace

TEST_CASE("on Xalan, the first screen of a recording names the application's code") {
  REQUIRE_MESSAGE(std::string(BN_XALAN_CLASSPATH).size() > 0,
                  "Xalan is not installed: apt-get install libxalan2-java (./dev test does)");
  const fs::path dir = bn::test::work_dir("real-xalan");
  // The input of the call-tree benchmark's Xalan workload (one generator for both). Long enough
  // that the report, not start-up, holds most of the CPU: with 8000 orders the JIT compiler
  // threads' CPU ([JVM JIT compiler], a real cost the recording shows) could rank above
  // Process.main on a loaded machine; the report's cost grows as the square of the orders.
  const auto input = bn::test::run_command({"/bin/bash", BN_XALAN_INPUT_SCRIPT, dir.string(), "16000"}, 60s);
  REQUIRE(input.exit_code == 0);
  const fs::path file = dir / "run.bnp";
  const auto r = bn::test::run_command(
      {bn::test::kCli, "record", "-o", file.string(), "--interval", "5ms", "--agent", BN_AGENT_PATH, "--",
       bn::test::java_tool("java"), "-cp", BN_XALAN_CLASSPATH, "org.apache.xalan.xslt.Process", "-IN",
       (dir / "orders.xml").string(), "-XSL", (dir / "report.xsl").string(), "-OUT", (dir / "out.txt").string()},
      300s);
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(lines_of(dir / "out.txt") == 60);  // the report ran: one line per city

  const auto out = bn::test::repl_json(file, {}, "suggest; set suggester HighBase; suggest; autolabel; threads");
  std::vector<json> suggests;
  for (const json& j : out)
    if (j.value("command", "") == "suggest") suggests.push_back(j);
  REQUIRE(suggests.size() == 2);

  {
    INFO("the default view is CPU, and its header says how to see wall time");
    const json view = bn::test::only(out, "view");
    const std::string header = view["header"].dump();
    CHECK(header.find("running") != std::string::npos);
    CHECK(header.find("set states all") != std::string::npos);
  }
  {
    INFO("HighCum's first row is Xalan's, and no idle wait is in the top 5");
    const json& rows = suggests[0]["summaries"];
    REQUIRE(rows.size() >= 5);
    CHECK(is_xalan(leaf(rows[0])));
    for (std::size_t i = 0; i < 5; ++i) {
      CAPTURE(leaf(rows[i]));
      CHECK_FALSE(is_idle_wait(leaf(rows[i])));
    }
  }
  {
    INFO("HighBase ranks methods by their own time: its first row has base > 0");
    const json& rows = suggests[1]["summaries"];
    REQUIRE_FALSE(rows.empty());
    CHECK(rows[0]["base"].get<std::string>() != "0");
  }
  {
    INFO("autolabel proposes code, not trunks or idle waits");
    const json autolabel = bn::test::only(out, "autolabel");
    const json& proposals = autolabel["proposals"];
    REQUIRE_FALSE(proposals.empty());
    for (const json& p : proposals) {
      CAPTURE(p.dump());
      CHECK_FALSE(is_idle_wait(leaf(p)));
      CHECK(leaf(p) != "org.apache.xalan.xslt.Process.main");
    }
  }
  {
    INFO("the JIT compiler threads' CPU is in the profile");
    const std::string threads = bn::test::only(out, "threads").dump();
    CHECK(threads.find("[JVM JIT compiler]") != std::string::npos);
  }
}
