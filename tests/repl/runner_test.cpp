#include "bn/repl/runner.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../search/fake_profile.h"
#include "../temp_dir.h"
#include "bn/base/interruption.h"

using bn::search::testing::FakeProfile;

namespace {

struct RunnerHarness {
  FakeProfile profile{bn::search::testing::figure2()};
  bn::search::Session session{profile};
  std::ostringstream out, err;
  bn::repl::Runner runner{session, out, err, {}};
};

}  // namespace

TEST_CASE("a failing command in a script names file:line and stops the run") {
  RunnerHarness h;
  std::istringstream script("suggest\nselet 1\nsuggest 2\n");
  const auto result = bn::repl::run_script(h.runner, script, "walk.cmds", false);
  CHECK(result.failures == 1);
  CHECK(result.stopped);
  CHECK(h.err.str() == "bottlenecks: error: walk.cmds:2: unknown command 'selet'; did you mean 'select'?\n");
  CHECK(h.out.str().find("1 of 5") == std::string::npos);  // suggest 2 never ran
}

TEST_CASE("keep-going runs every line and counts the failures") {
  RunnerHarness h;
  std::istringstream script("select 9\nsuggest 0\nsuggest 2\n");
  const auto result = bn::repl::run_script(h.runner, script, "s", true);
  CHECK(result.failures == 2);
  CHECK_FALSE(result.stopped);
  CHECK(h.err.str() ==
        "bottlenecks: error: s:1: no numbered summaries yet: run `suggest` or `path` first\n"
        "bottlenecks: error: s:2: bad count '0': expected 1 or more\n");
  CHECK(h.out.str().find("2 of 5 methods") != std::string::npos);
}

TEST_CASE("a bad summary number names the valid range") {
  RunnerHarness h;
  h.runner.run_line("suggest 3", "");
  CHECK(h.runner.run_line("select 3", "") == bn::repl::LineResult::kFailed);
  CHECK(h.err.str() == "bottlenecks: error: bad summary number '3': expected 0-2\n");
}

TEST_CASE("errors leave every label in place") {
  RunnerHarness h;
  h.runner.run_line("path c", "");
  h.runner.run_line("label hot", "");
  for (const char* bad : {"label", "unlabel cold", "load /nonexistent/labels.txt", "path nope", "set cutoff -1",
                          "save /nonexistent-dir/x"})
    CHECK(h.runner.run_line(bad, "") == bn::repl::LineResult::kFailed);
  REQUIRE(h.session.labels().all().count("hot") == 1);
  CHECK(h.session.labels().all().at("hot").size() == 1);
  CHECK(h.session.labels_dirty());
}

TEST_CASE("a failed path or select leaves no current summary, so a label after it labels nothing") {
  for (const char* failed : {"path nope", "select 99"}) {
    CAPTURE(failed);
    RunnerHarness h;
    h.runner.run_line("suggest", "");
    h.runner.run_line("path c", "");
    CHECK(h.runner.run_line(failed, "") == bn::repl::LineResult::kFailed);
    h.err.str("");
    CHECK(h.runner.run_line("label hot", "") == bn::repl::LineResult::kFailed);
    CHECK(h.err.str() == "bottlenecks: error: no current summary to label: `select N` or `path m1;m2;...` first\n");
    CHECK(h.session.labels().all().empty());
    // `back` returns to the summary that was current before the failure.
    CHECK(h.runner.run_line("back", "") == bn::repl::LineResult::kOk);
    CHECK(h.runner.run_line("label hot", "") == bn::repl::LineResult::kOk);
    REQUIRE(h.session.labels().all().count("hot") == 1);
    CHECK(h.session.profile().path_of(*h.session.labels().all().at("hot").begin()) ==
          std::vector<std::string_view>{"c"});
  }
}

TEST_CASE("-c splits commands on '; ' but keeps a call sequence whole") {
  RunnerHarness h;
  const auto result = bn::repl::run_commands(h.runner, "path a;b;c; label x; quit; suggest", false);
  CHECK(result.failures == 0);
  CHECK(h.session.labels().all().count("x") == 1);
  CHECK(h.profile.path_of(*h.session.current()) == std::vector<std::string_view>{"a", "b", "c"});
  CHECK(h.out.str().find("HighCum") == std::string::npos);  // nothing runs after quit
}

TEST_CASE("a failing -c command with ';' before a command's name says how commands are separated") {
  RunnerHarness h;
  const auto result = bn::repl::run_commands(h.runner, "suggest 2;select 0", false);
  CHECK(result.failures == 1);
  CHECK(h.err.str() ==
        "bottlenecks: error: -c:1: usage: suggest [N] (in -c, commands are separated by '; ', a semicolon and a "
        "blank: ';select' does not start a command)\n");
  // A call sequence's ';' is no separator: its errors stay as they were.
  RunnerHarness other;
  bn::repl::run_commands(other.runner, "path a;nope", false);
  CHECK(other.err.str().find("separated") == std::string::npos);
}

TEST_CASE("the ten-samples rule marks sample counts under 10 as unreliable, and only sample counts") {
  auto suggestions = [](bool samples) {
    FakeProfile tiny({{"x", 3}, {"x;y", 4}, {"x;z", 30}}, 1, samples);
    bn::search::Session session(tiny);
    std::ostringstream out, err;
    bn::repl::Runner runner(session, out, err, {});
    runner.run_line("suggest", "");
    return out.str();
  };
  const std::string counted = suggestions(true);
  CHECK(counted.find("[y]  (unreliable: under 10 samples)") != std::string::npos);
  CHECK(counted.find("[z]  (unreliable") == std::string::npos);
  CHECK(counted.find("[x]  (unreliable") == std::string::npos);
  CHECK(suggestions(false).find("unreliable") == std::string::npos);
}

TEST_CASE("an over-long script line is refused by its location without reading it whole") {
  RunnerHarness h;
  std::istringstream script(std::string(2u << 20, 'x') + "\nsuggest 1\n");
  const auto result = bn::repl::run_script(h.runner, script, "big", true);
  CHECK(result.failures == 1);
  CHECK(h.err.str() == "bottlenecks: error: big:1: line longer than 1 MiB\n");
  CHECK(h.out.str().find("1 of 5 methods") != std::string::npos);
}

TEST_CASE("a script that is not text (a NUL byte, as /dev/zero gives) stops at once with one error") {
  RunnerHarness h;
  std::istringstream script("suggest 1\n" + std::string(4096, '\0'));
  const auto result = bn::repl::run_script(h.runner, script, "zero", true);
  CHECK(result.failures == 1);
  CHECK(result.stopped);
  CHECK(h.err.str() == "bottlenecks: error: zero:2: not a command file (a NUL byte, or a line longer than 16 MiB)\n");
}

// `load` resolves every summary of the file before it labels any, stepping every 4,096 of them:
// Ctrl-C while it resolves a large file leaves the labels as they were.
TEST_CASE("an interrupted load labels nothing") {
  RunnerHarness h;
  h.runner.run_line("path c", "");
  h.runner.run_line("label hot", "");
  const bn::test::TempDir dir;
  const std::filesystem::path file = dir.path() / "many.labels";
  {
    std::ofstream f(file);
    f << "# bottlenecks labels v2\n";
    for (int i = 0; i < 5000; ++i) f << "label many\n  a\n";
  }
  bn::base::clear_interruption();
  bn::base::set_step_listener([](std::string_view, std::size_t, std::size_t) { bn::base::request_interruption(); });
  CHECK(h.runner.run_line("load " + file.string(), "") == bn::repl::LineResult::kFailed);
  bn::base::set_step_listener({});
  CHECK(h.err.str() == "bottlenecks: error: interrupted: loading labels stopped after 4095 of 5000 steps\n");
  h.out.str("");
  h.runner.run_line("labels", "");
  CHECK(h.out.str().find("label hot") != std::string::npos);
  CHECK(h.out.str().find("many") == std::string::npos);
}
