// The one place profiles are opened for a search (cli/search_source.h): the file, the view and
// the comparison, and the errors that name what the user typed.

#include "search_source.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/tree_builder.h"

namespace {

const std::string kFigure2 = std::string(BN_SOURCE_DIR) + "/samples/figure2/figure2.collapsed";
const std::string kCompareA = std::string(BN_SOURCE_DIR) + "/samples/compare-small/a.collapsed";
const std::string kCompareB = std::string(BN_SOURCE_DIR) + "/samples/compare-small/b.collapsed";

bn::cli::SearchOptions search_of(const std::string& path) {
  bn::cli::SearchOptions o;
  o.profile.path = path;
  return o;
}

std::string error_of(const bn::cli::SearchOptions& o) {
  try {
    bn::cli::SearchSource search(o);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "";
}

// A native profile of one stack a;c costing 7, measuring `metric`.
std::filesystem::path native_profile(const std::string& metric, const std::string& unit) {
  bn::calltree::TreeBuilder builder;
  const bn::calltree::MethodId frames[] = {builder.intern("a"), builder.intern("c")};
  builder.add_stack(frames, 7);
  bn::calltree::Metadata md;
  md.metric = metric;
  md.unit = unit;
  char dir_template[] = "/tmp/bn-search-test-XXXXXX";
  const std::filesystem::path dir = mkdtemp(dir_template);
  const std::filesystem::path path = dir / (metric + ".bnp");
  bn::calltree::write_profile(std::move(builder).build(md), path);
  return path;
}

}  // namespace

TEST_CASE("a search of one file searches its call tree and has no header") {
  bn::cli::SearchSource search(search_of(kFigure2));
  CHECK(search.format() == "collapsed");
  CHECK(search.profile().total() == 100);
  CHECK(search.profile().initial_summaries().size() == 5);
  CHECK(search.header().empty());
  CHECK(search.header_json().empty());
}

TEST_CASE("a search with a base subtracts the same view of the base and says so in its header") {
  bn::cli::SearchOptions o = search_of(kCompareA);
  o.compare.base = {kCompareB};
  bn::cli::SearchSource search(o);
  CHECK(search.profile().total() == 66 - 50);
  REQUIRE(search.header().size() >= 2);
  CHECK(search.header()[0].find("comparing A = a.collapsed (total 66 samples) minus B = b.collapsed (total 50") == 0);
  CHECK(search.header_json().find("\"command\":\"compare\"") != std::string::npos);
}

TEST_CASE("an unknown view is refused with the views there are") {
  bn::cli::SearchOptions o = search_of(kFigure2);
  o.view = "sideways";
  // Every row of the view table, in its order (a new row goes after these).
  CHECK(bn::cli::view_names().starts_with("tree, server, thread CLASS"));
  CHECK(error_of(o) == "unknown view 'sideways' (expected " + bn::cli::view_names() + ")");
  o.view = "thread";
  CHECK(error_of(o) == "unknown view 'thread' (expected " + bn::cli::view_names() + ")");
}

TEST_CASE("option errors name the option, and are found before any file is read") {
  bn::cli::SearchOptions o = search_of("/nonexistent/profile");
  o.compare.base = {kCompareB};
  o.compare.scale = "x";
  CHECK(error_of(o).find("--scale: 'x' is not a decimal or fraction") == 0);
}

TEST_CASE("runs of different metrics are refused naming --force, and compared with it") {
  bn::cli::SearchOptions o = search_of(kFigure2);
  const std::string cpu_time = native_profile("cpu-time", "ns").string();
  o.compare.base = {cpu_time};
  const std::string error = error_of(o);
  CHECK(error.find("--base " + cpu_time +
                   ": cannot compare profiles: profile A measures samples (samples) but "
                   "profile B measures cpu-time (ns); pass --force to subtract them anyway") == 0);
  o.compare.force = true;
  bn::cli::SearchSource search(o);
  CHECK(search.profile().metric().metric == "samples minus cpu-time");
  CHECK(search.profile().total() == 100 - 7);
  std::filesystem::remove_all(std::filesystem::path(cpu_time).parent_path());
}

TEST_CASE("runs of one side must measure the same, even with --force; the error names that side's files") {
  const std::string cpu_time = native_profile("cpu-time", "ns").string();
  bn::cli::SearchOptions o = search_of(kFigure2);
  o.compare.more = {cpu_time};
  o.compare.base = {kCompareB};
  o.compare.force = true;
  CHECK(error_of(o) == std::string(kFigure2) + ", " + cpu_time +
                           ": cannot average the runs of A: run 1 measures samples (samples) but run 2 measures "
                           "cpu-time (ns)");
  o.compare.more = {};
  o.compare.base = {kCompareB, cpu_time};
  CHECK(error_of(o) == "--base " + std::string(kCompareB) + ", " + cpu_time +
                           ": cannot average the runs of B: run 1 measures samples (samples) but run 2 measures "
                           "cpu-time (ns)");
  std::filesystem::remove_all(std::filesystem::path(cpu_time).parent_path());
}

TEST_CASE("a side of several runs is their mean, and the header lists the runs") {
  bn::cli::SearchOptions o = search_of(kCompareA);
  o.compare.more = {kCompareA};
  o.compare.base = {kCompareB, kCompareA};
  bn::cli::SearchSource search(o);
  // A: 66; B: (50 + 66)/2 = 58.
  CHECK(bn::iface::to_rational(search.profile().total(), search.profile().denominator()) == 66 - 58);
  REQUIRE(search.a_trees().size() == 2);
  REQUIRE(search.base_trees().size() == 2);
  CHECK(search.header()[0] ==
        "comparing A = the mean of 2 runs: a.collapsed (total 66 samples), a.collapsed (total 66 samples) minus B = "
        "the mean of 2 runs: b.collapsed (total 50 samples), a.collapsed (total 66 samples); normalisation: none");
}
