// The unsaved-labels autosave writes what `save` writes: a label built with an aspect
// (`:NAME`, seed 000 sec. 3) comes back in a new session only if the file defines the aspect.

#include "bn/repl/autosave.h"

#include <doctest/doctest.h>

#include <sstream>

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
