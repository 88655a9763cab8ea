// The unsaved-labels autosave writes what `save` writes: a label built with an aspect
// (`:NAME`, seed 000 sec. 3) comes back in a new session only if the file defines the aspect.

#include "bn/repl/autosave.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../temp_dir.h"
#include "bn/calltree/profile_loader.h"
#include "bn/calltree/tree_profile.h"
#include "bn/repl/runner.h"
#include "bn/search/label_file.h"

namespace {

struct Run {
  explicit Run(bn::iface::Profile& profile) : session(profile), runner(session, out, err, {}) {}
  bn::search::Session session;
  std::ostringstream out, err;
  bn::repl::Runner runner;
  void operator()(const std::string& commands) {
    std::istringstream script(commands);
    CHECK(bn::repl::run_script(runner, script, "t", false).failures == 0);
  }
};

}  // namespace

// `aspect :cd = ...` (the spelling sequences use) defines the aspect named cd.
TEST_CASE("autosaved labels carry the aspects they use and load into a new session") {
  const bn::test::TempDir dir;
  auto opened = bn::calltree::open_profile(BN_SOURCE_DIR "/samples/figure2/figure2.collapsed");
  bn::calltree::TreeProfile profile(opened.loaded.tree);
  Run first(profile);
  first("aspect :cd = c|d\npath a;..;:cd\nlabel deep\npath a;b\nlabel plain\n");
  const auto written = bn::repl::autosave_labels(first.session, dir.path());
  REQUIRE(written.size() == 1);
  const bn::search::LabelFile file = bn::search::read_label_file(written[0]);
  REQUIRE(file.aspects.size() == 1);
  CHECK(file.aspects[0].name == "cd");
  CHECK(file.aspects[0].pattern == "c|d");

  Run second(profile);
  second("load " + written[0].string() + "\n");
  CHECK(second.out.str().find("loaded 2 labelled summaries") != std::string::npos);
  REQUIRE(second.session.labels().all().count("deep") == 1);
  const bn::iface::Summary deep = *second.session.labels().all().at("deep").begin();
  CHECK(profile.cum_of(deep) == 97);  // a;..;c or d: every measurement at or below a c under the a
  CHECK(second.session.aspects().find("cd") != nullptr);
}

TEST_CASE("autosave numbers a session after the newest and keeps only the newest sessions' files") {
  const bn::test::TempDir dir;
  auto opened = bn::calltree::open_profile(BN_SOURCE_DIR "/samples/figure2/figure2.collapsed");
  bn::calltree::TreeProfile profile(opened.loaded.tree);
  // Files of other programs, and names that only look like ours, are left alone.
  for (const char* other : {"notes.txt", "unsaved-x.labels", "unsaved-.labels"})
    std::ofstream(dir.path() / other) << "";
  std::vector<std::filesystem::path> last;
  for (std::size_t i = 1; i <= bn::repl::kKeptSessions + 3; ++i) {
    Run run(profile);
    run("path a;b\nlabel hot\n");
    last = bn::repl::autosave_labels(run.session, dir.path());
  }
  REQUIRE(last.size() == 1);
  CHECK(last[0].filename() == "unsaved-13.labels");
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) names.insert(entry.path().filename());
  std::set<std::string> expected{"notes.txt", "unsaved-x.labels", "unsaved-.labels"};
  for (int n = 4; n <= 13; ++n) expected.insert("unsaved-" + std::to_string(n) + ".labels");
  CHECK(names == expected);
}
