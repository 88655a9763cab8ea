// Switching views at run time (`view`, `set model|states|threads`, `threads`) through the
// session's ProfileSource: each view keeps its own labels, a failing switch changes nothing,
// label files name their view, and JSON output names it too.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "../search/fake_profile.h"
#include "bn/base/error.h"
#include "bn/repl/dispatch.h"
#include "bn/repl/runner.h"
#include "bn/search/profile_source.h"

using bn::search::ProfileSource;
using bn::search::testing::FakeProfile;

namespace {

// Two views of one pretend recording: "tree" (figure 2) and "server" (a smaller tree that has
// [c] but not [d]); under model "measured" the tree view also lacks [d], as a model that gives some
// measurements no weight would. Any other view is refused, as an unknown thread class would be.
class FakeSource final : public ProfileSource {
 public:
  bn::iface::Profile& profile() override {
    if (view_ == "server") return server_;
    return model_ == "measured" || !filters_.empty() ? thin_ : tree_;
  }
  bool has_views() override { return true; }
  std::string view() const override { return view_; }
  // Not in the tool's order, so that the REPL is seen to follow the source's.
  std::vector<bn::search::ViewKind> view_kinds() const override {
    return {{"server", "", "all threads (pretend)"},
            {"tree", "", "the tree (pretend)"},
            {"thread", "CLASS", "one class (pretend)"}};
  }
  std::vector<std::string> header() const override { return {"view: " + view_ + " (pretend)"}; }
  std::string knob(Knob k) const override { return k == Knob::view ? view_ : k == Knob::model ? model_ : "x"; }
  void set(Knob k, std::string_view value) override {
    if (k == Knob::model) {
      model_ = std::string(value);
      return;
    }
    asked.emplace_back(value);
    if (value != "tree" && value != "server") throw bn::Error("no thread class 'x'");
    view_ = std::string(value);
  }
  std::vector<std::string> metrics() const override { return {"samples", "calls"}; }
  // Any filter gives the tree view the profile without [d], as `exclude d` would.
  const std::vector<bn::iface::ProfileFilter>& filters() const override { return filters_; }
  void set_filters(std::vector<bn::iface::ProfileFilter> filters) override { filters_ = std::move(filters); }
  bn::search::ThreadsOutput threads() override {
    return {{"thread classes (pretend)"}, {":RUN", ":WAIT"}, 2, {{"Sender", false, 3, 10, 2'500'000'000, {4, 16}, 20}}};
  }
  bn::search::FlameResult draw_flame(const bn::search::FlameRequest& request) override {
    drawn.push_back(request);
    return {"html", 7, 0};
  }
  std::vector<bn::search::FlameRequest> drawn;  // what `flame` asked for
  std::vector<std::string> asked;               // every view set() was asked for

 private:
  FakeProfile tree_{bn::search::testing::figure2()};
  FakeProfile server_{{{"a;c", 4}, {"a;b", 1}}};
  FakeProfile thin_{{{"a;c", 4}, {"a;b", 1}}};
  std::string view_ = "tree";
  std::string model_ = "paper";
  std::vector<bn::iface::ProfileFilter> filters_;
};

struct SessionHarness {
  explicit SessionHarness(bool json = false) : runner{session, out, err, {.json = json}} {}
  FakeSource source;
  bn::search::Session session{source};
  std::ostringstream out, err;
  bn::repl::Runner runner;

  std::string run(const std::string& line) {
    out.str("");
    err.str("");
    runner.run_line(line, "");
    return out.str() + err.str();
  }
};

}  // namespace

TEST_CASE("switching views keeps each view's labels and restores them on return") {
  SessionHarness h;
  h.run("path c;d");
  h.run("label hot");
  const std::string switched = h.run("view server");
  CHECK(switched.find("view = server\nview: server (pretend)\n") == 0);
  CHECK(switched.find("1 labelled summary of view tree kept for `view tree`") != std::string::npos);
  CHECK(h.session.labels().empty());
  CHECK(h.session.current() == std::nullopt);  // the old profile's handles are gone
  CHECK(h.run("select 0").find("no numbered summaries") != std::string::npos);
  const std::string back = h.run("view tree");
  CHECK(back.find("1 labelled summary of view tree restored") != std::string::npos);
  REQUIRE(h.session.labels().all().count("hot") == 1);
  CHECK(h.session.labels_dirty());
}

TEST_CASE("flame asks the source to draw the current summary, or the whole profile, with the labels") {
  SessionHarness h;
  CHECK(h.run("flame") == "drew the whole profile into flame.html (html, 7 frames)\n");
  h.run("path c;d");
  h.run("label hot");
  h.run("path a");
  h.run("label hot");
  CHECK(h.run("flame 'x y.html'") == "drew [a] with its callers and callees into x y.html (html, 7 frames)\n");
  REQUIRE(h.source.drawn.size() == 2);
  CHECK(h.source.drawn[0].focus.empty());
  CHECK(h.source.drawn[0].file == "flame.html");
  const bn::search::FlameRequest& second = h.source.drawn[1];
  CHECK(second.file == "x y.html");
  CHECK(second.focus == std::vector<std::string>{"a"});
  REQUIRE(second.labels.size() == 1);
  CHECK(second.labels[0].name == "hot");
  CHECK(second.labels[0].sequences == std::vector<std::vector<std::string>>{{"c", "d"}, {"a"}});
}

TEST_CASE("labels that no longer resolve in their view are named with the reason, not dropped silently") {
  SessionHarness h;
  h.run("path c;d");
  h.run("label hot");
  h.run("path c");
  h.run("label warm");
  const std::string rebuilt = h.run("set model measured");  // the same view, rebuilt without [c;d]
  CHECK(rebuilt.find("1 labelled summary of view tree restored") != std::string::npos);
  CHECK(rebuilt.find("label hot [c;d] set aside, until it resolves again: [c] never calls d") != std::string::npos);
  CHECK(h.session.labels().all().count("warm") == 1);
  CHECK(h.session.labels().all().count("hot") == 0);
}

TEST_CASE("labels set aside under a filter come back when it is dropped, and save keeps them meanwhile") {
  SessionHarness h;
  h.run("path c;d");
  h.run("label hot");
  h.run("path a;c");
  h.run("label warm");
  const std::string filtered = h.run("exclude c;d");
  CHECK(filtered.find("filters = exclude c;d\n") == 0);
  CHECK(filtered.find("label hot [c;d] set aside, until it resolves again: [c] never calls d") != std::string::npos);
  CHECK(filtered.find("current summary: [a;c]") != std::string::npos);  // kept across the rebuild
  CHECK(h.session.labels().all().count("hot") == 0);
  // Saved with the labels in force, so quitting under a filter loses nothing.
  const bn::search::LabelFile saved = h.session.label_file();
  REQUIRE(saved.labels.size() == 2);
  CHECK(saved.labels[1].label == "hot");
  const std::string dropped = h.run("unfilter");
  CHECK(dropped.find("filters = none\n") == 0);
  CHECK(dropped.find("2 labelled summaries of view tree restored") != std::string::npos);
  CHECK(h.session.labels().all().count("hot") == 1);
  CHECK(h.run("unfilter") ==
        "bottlenecks: error: no filter to drop: `exclude SEQUENCE` or `focus SEQUENCE` adds one\n");
}

TEST_CASE("a filter of an unknown aspect, of nothing, or given twice is refused and changes nothing") {
  SessionHarness h;
  CHECK(h.run("exclude a;..;:nope").find("':nope' is no aspect") != std::string::npos);
  CHECK(h.run("focus").find("usage") != std::string::npos);
  CHECK(h.run("exclude zz").find("error") != std::string::npos);
  CHECK(h.source.filters().empty());
  h.run("exclude a;c");
  CHECK(h.run("exclude a;c") == "bottlenecks: error: exclude a;c is already in force (`filters` lists them)\n");
  CHECK(h.source.filters().size() == 1);
}

TEST_CASE("a view that cannot be built changes nothing") {
  SessionHarness h;
  h.run("path c");
  h.run("label hot");
  CHECK(h.run("view thread Nope") == "bottlenecks: error: no thread class 'x'\n");
  CHECK(h.source.view() == "tree");
  CHECK(h.session.current().has_value());
  CHECK(h.session.labels().all().count("hot") == 1);
}

TEST_CASE("saved labels name their view, and loading them into another view says so") {
  SessionHarness h;
  const auto file = std::filesystem::temp_directory_path() / ("bn_views_session_" + std::to_string(::getpid()));
  h.run("path c");
  h.run("label hot");
  h.run("save " + file.string());
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("\nview tree\nlabel hot\n  c\n") != std::string::npos);
  h.run("view server");
  const std::string loaded = h.run("load " + file.string());
  CHECK(loaded.find("note: the labels were saved from view tree; their costs here are those of view\n  server") !=
        std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("quit warns about unsaved labels of any view, not only the one in force") {
  SessionHarness h;
  h.run("path c");
  h.run("label hot");
  h.run("view server");
  CHECK(h.run("quit").find("labels changed since the last save were not saved") != std::string::npos);
}

TEST_CASE("settings show the view knobs, and JSON output names the view of its numbers") {
  SessionHarness text;
  const std::string settings = text.run("set");
  CHECK(settings.find("\nview = tree\nmodel = paper\n") != std::string::npos);
  SessionHarness json(true);
  json.run("view server");
  CHECK(json.run("suggest 1").find("\"view\":\"server\"") != std::string::npos);
}

TEST_CASE("threads lists each class with its share of each type of time") {
  SessionHarness h;
  const std::string table = h.run("threads");
  CHECK(table.find("thread classes (pretend)\n") == 0);
  CHECK(table.find("  class  threads instances lifetime  :RUN :WAIT started by\n") != std::string::npos);
  CHECK(table.find("  Sender       3        10   2.50 s 20.0% 80.0% program\n") != std::string::npos);
}

TEST_CASE("a session on one profile has no views to switch") {
  FakeProfile p(bn::search::testing::figure2());
  bn::search::Session session(p);
  std::ostringstream out, err;
  bn::repl::Runner runner(session, out, err, {});
  CHECK(runner.run_line("view server", "") == bn::repl::LineResult::kFailed);
  CHECK(err.str() == "bottlenecks: error: this session searches one profile and has no views\n");
}

TEST_CASE("set metric completes the source's metrics and is shown by set") {
  SessionHarness h;
  bn::repl::Context context(h.session);
  CHECK(bn::repl::complete(context, "set metric c").words == std::vector<std::string>{"calls"});
  CHECK(h.run("set").find("\nmetric = x (the profile has samples, calls)") != std::string::npos);
}

TEST_CASE("view takes its alternatives, usage, help and completion from the source's views") {
  SessionHarness h;
  CHECK(h.run("help view") ==
        "  view server|tree|thread CLASS  search another view: all threads (pretend), the\n"
        "                                 tree (pretend), or one class (pretend)\n");
  bn::repl::Context context(h.session);
  CHECK(bn::repl::complete(context, "view ").words == std::vector<std::string>{"server", "thread", "tree"});
  CHECK(bn::repl::complete(context, "view th").words == std::vector<std::string>{"thread"});
  CHECK(h.run("view sideways") == "bottlenecks: error: bad view 'sideways': expected server/tree/thread\n");
  CHECK(h.run("view sever") ==
        "bottlenecks: error: bad view 'sever': expected server/tree/thread; did you mean 'server'?\n");
  CHECK(h.run("view thread") == "bottlenecks: error: usage: view server|tree|thread CLASS\n");
  h.run("view THREAD Sender");
  h.run("view Server");
  // The keyword as the source spells it, whatever the case typed.
  CHECK(h.source.asked == std::vector<std::string>{"thread Sender", "server"});
}
