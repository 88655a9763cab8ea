// The REPL's `causal` on a native profile written here with a call tree and "caus" chunks: the
// ranked targets, a target's curve by number, label or sequence, --progress, JSON, several
// recordings pooled, and the one-line errors; and the same report as a flame graph's charts.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../temp_dir.h"
#include "bn/calltree/causal_records.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/tree_builder.h"
#include "bn/repl/runner.h"
#include "bn/search/session.h"
#include "flame_drawing.h"
#include "search_source.h"

namespace ct = bn::calltree;

namespace {

// main;work;parse 60, main;work;io 30, main;idle 10: the label "parsing" covers 60%, the
// sequence main;idle 10%.
ct::CallTree tree() {
  ct::TreeBuilder b;
  const ct::MethodId main = b.intern("main"), work = b.intern("work"), parse = b.intern("parse"), io = b.intern("io"),
                     idle = b.intern("idle");
  b.add_stack(std::vector{main, work, parse}, 60);
  b.add_stack(std::vector{main, work, io}, 30);
  b.add_stack(std::vector{main, idle}, 10);
  return std::move(b).build({});
}

ct::CausalExperiment experiment(std::uint32_t target, std::uint32_t speedup, std::int64_t effective) {
  ct::CausalExperiment e;
  e.target = target;
  e.speedup = speedup;
  e.delay_ns = speedup * 10;
  e.duration_ns = effective + e.delay_ns;
  e.progress = {10, 1};
  return e;
}

// Four baseline experiments (100 ns per reply); "parsing" 20% faster at 50%, 30% at 100%;
// main;idle no faster at 50%, though it costs 10%.
ct::CausalData experiments() {
  ct::CausalData d;
  d.period_ns = 1'000'000;
  d.targets = {{"parsing", true, {{"work", "parse"}}}, {"main;idle", false, {{"main", "idle"}}}};
  d.points = {{"reply", ct::ProgressPoint::Kind::throughput}, {"end", ct::ProgressPoint::Kind::end}};
  for (std::uint32_t t : {0, 1, 0, 1}) d.experiments.push_back(experiment(t, 0, 1000));
  for (int i = 0; i < 3; ++i) d.experiments.push_back(experiment(0, 50, 800));
  for (int i = 0; i < 2; ++i) d.experiments.push_back(experiment(0, 100, 700));
  for (int i = 0; i < 3; ++i) d.experiments.push_back(experiment(1, 50, 1000));
  return d;
}

std::string write(const std::filesystem::path& path, const std::vector<ct::CausalData>& chunks) {
  std::vector<ct::AncillaryChunk> ancillary;
  for (const ct::CausalData& c : chunks) ancillary.emplace_back(ct::kTagCausal, ct::encode_causal(c, c.experiments));
  ct::write_profile(tree(), path, ancillary);
  return path.string();
}

struct Transcript {
  std::string out, err;
};

Transcript run(const std::vector<std::string>& files, const std::string& commands, bool json = false) {
  bn::cli::SearchOptions options;
  options.profile.path = files.front();
  options.compare.more.assign(files.begin() + 1, files.end());  // several recordings, no --base
  bn::cli::SearchSource source(options);
  bn::search::Session session(source);
  std::ostringstream out, err;
  bn::repl::Runner runner(session, out, err, {.json = json, .echo = true});
  bn::repl::run_commands(runner, commands, true);
  return {out.str(), err.str()};
}

}  // namespace

TEST_CASE("causal ranks the targets by the program's speedup were each 50% faster") {
  const bn::test::TempDir dir;
  const std::string file = write(dir.path() / "causal.bnp", {experiments()});
  const Transcript t = run({file}, "causal");
  CHECK(t.err.empty());
  CHECK(t.out ==
        "bottlenecks> causal\n"
        "causal experiments: 12 (4 at 0%, the baseline) from 1 recording, progress at\n"
        "  reply (one of 2: `causal --progress NAME`)\n"
        "  #  target        cost  if 50% faster            exp\n"
        "  1  parsing      60.0%  +20.0% [+20.0%, +20.0%]    3\n"
        "  2  [main;idle]  10.0%  +0.0% [+0.0%, +0.0%]       3\n"
        "     flags: off the critical path\n"
        "off the critical path: costs much, pays little: its time overlaps time the\n"
        "  program waits for anyway\n"
        "`causal N` shows target N's curve: the program's speedup at each virtual speedup\n\n");
}

TEST_CASE("causal N, LABEL or SEQ shows one target's curve") {
  const bn::test::TempDir dir;
  const std::string file = write(dir.path() / "causal.bnp", {experiments()});
  const Transcript by_number = run({file}, "causal 1");
  CHECK(by_number.err.empty());
  CHECK(by_number.out ==
        "bottlenecks> causal 1\n"
        "causal experiments: 12 (4 at 0%, the baseline) from 1 recording, progress at\n"
        "  reply (one of 2: `causal --progress NAME`)\n"
        "target 1: parsing (label, 1 summary), cost 60.0%, if 50% faster +20.0% [+20.0%,\n"
        "  +20.0%]\n"
        "  speedup  program  interval          exp\n"
        "       0%    +0.0%  [+0.0%, +0.0%]      2  |\n"
        "      50%   +20.0%  [+20.0%, +20.0%]    3  |#############\n"
        "     100%   +30.0%  [+30.0%, +30.0%]    2  |####################\n\n");
  CHECK(run({file}, "causal parsing").out.find("target 1: parsing") != std::string::npos);
  const Transcript seq = run({file}, "causal main;idle");
  CHECK(seq.out.find("target 2: [main;idle], cost 10.0%") != std::string::npos);
  CHECK(seq.out.find("flags: off the critical path\n") != std::string::npos);
}

TEST_CASE("causal --progress picks another progress point") {
  const bn::test::TempDir dir;
  const std::string file = write(dir.path() / "causal.bnp", {experiments()});
  const Transcript t = run({file}, "causal --progress end 1");
  CHECK(t.err.empty());
  CHECK(t.out.find("progress at end\n  (one of 2") != std::string::npos);
  const Transcript unknown = run({file}, "causal --progress nope");
  CHECK(unknown.err.find("no progress point 'nope' (recorded: reply, end)") != std::string::npos);
}

TEST_CASE("causal refuses in one line a profile without experiments and a target it does not list") {
  const bn::test::TempDir dir;
  const std::string file = write(dir.path() / "plain.bnp", {});
  const Transcript none = run({file}, "causal");
  CHECK(none.out == "bottlenecks> causal\n\n");
  CHECK(none.err ==
        "bottlenecks: error: -c:1: this profile has no causal experiments: record with `bottlenecks record --mode "
        "causal ...` "
        "(docs/causal.md)\n");
  const std::string with = write(dir.path() / "causal.bnp", {experiments()});
  CHECK(run({with}, "causal 3").err == "bottlenecks: error: -c:1: no target 3: `causal` lists 2\n");
  CHECK(run({with}, "causal nothing").err.find("no causal target 'nothing'") != std::string::npos);
}

TEST_CASE("causal in JSON gives speedups as fractions, each target's curve and flags") {
  const bn::test::TempDir dir;
  const std::string file = write(dir.path() / "causal.bnp", {experiments()});
  const Transcript t = run({file}, "causal", true);
  CHECK(t.err.empty());
  const nlohmann::json j = nlohmann::json::parse(t.out);
  CHECK(j["command"] == "causal");
  CHECK(j["ok"] == true);
  CHECK(j["progress"] == "reply");
  CHECK(j["progress_points"] == nlohmann::json::array({"reply", "end"}));
  CHECK(j["experiments"] == 12);
  CHECK(j["baseline_experiments"] == 4);
  CHECK(j["recordings"] == 1);
  REQUIRE(j["targets"].size() == 2);
  const nlohmann::json& first = j["targets"][0];
  CHECK(first["rank"] == 1);
  CHECK(first["label"] == "parsing");
  CHECK(first["summaries"] == nlohmann::json::array({nlohmann::json::array({"work", "parse"})}));
  CHECK(first["cost_share"].get<double>() == doctest::Approx(0.6));
  CHECK(first["if_50_percent_faster"]["program_speedup"].get<double>() == doctest::Approx(0.2));
  REQUIRE(first["points"].size() == 3);
  const nlohmann::json& half = first["points"][1];
  CHECK(half["speedup"].get<double>() == doctest::Approx(0.5));
  CHECK(half["program_speedup"].get<double>() == doctest::Approx(0.2));
  CHECK(half["low"].get<double>() == doctest::Approx(0.2));
  CHECK(half["high"].get<double>() == doctest::Approx(0.2));
  CHECK(half["experiments"] == 3);
  CHECK(first["flags"].empty());
  const nlohmann::json& second = j["targets"][1];
  CHECK(second["path"] == nlohmann::json::array({"main", "idle"}));
  CHECK(second["flags"] == nlohmann::json::array({"off the critical path"}));
  // One target's curve: that target alone.
  const nlohmann::json one = nlohmann::json::parse(run({file}, "causal 2", true).out);
  REQUIRE(one["targets"].size() == 1);
  CHECK(one["targets"][0]["rank"] == 2);
}

TEST_CASE("the experiments of several recordings pool") {
  const bn::test::TempDir scratch;
  const std::filesystem::path& dir = scratch.path();
  const std::string a = write(dir / "a.bnp", {experiments()});
  const std::string b = write(dir / "b.bnp", {experiments()});
  const Transcript t = run({a, b}, "causal");
  CHECK(t.err.empty());
  CHECK(t.out.find("causal experiments: 24 (8 at 0%, the baseline) from 2 recordings") != std::string::npos);
  // The header says whose tree is searched.
  bn::cli::SearchOptions options;
  options.profile.path = a;
  options.compare.more = {b};
  const bn::cli::SearchSource source(options);
  const std::vector<std::string> header = source.header();
  CHECK(std::find(header.begin(), header.end(),
                  "note: 1 more recording without --base: the tree searched is " + a +
                      "'s; `causal` pools the experiments of all 2") != header.end());
}

namespace {

// The SVG `bottlenecks flame` draws of `files` (several: pooled, no --base) with `progress`.
std::string flame_svg(const std::vector<std::string>& files, const std::string& progress) {
  bn::cli::SearchOptions options;
  options.profile.path = files.front();
  options.compare.more.assign(files.begin() + 1, files.end());
  bn::cli::SearchSource source(options);
  const std::string svg = files.front() + ".svg";
  bn::cli::draw_flame_graph(source, {.file = svg}, {.progress = progress});
  std::ifstream in(svg);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t charts_in(const std::string& svg) {
  std::size_t n = 0;
  for (std::size_t at = svg.find("<svg class=\"causal-chart\""); at != std::string::npos;
       at = svg.find("<svg class=\"causal-chart\"", at + 1))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("flame draws causal's report below the picture, at the progress point --progress picks") {
  const bn::test::TempDir scratch;
  const std::filesystem::path& dir = scratch.path();
  const std::string a = write(dir / "a.bnp", {experiments()});
  const std::string first = flame_svg({a}, "");
  CHECK(charts_in(first) == 2);
  CHECK(first.find(">causal experiments: 12 (4 at 0%, the baseline) from 1 recording, progress at reply (one of 2: "
                   "--progress NAME)</text>") != std::string::npos);
  CHECK(first.find(">1. parsing</text>") < first.find(">2. [main;idle]</text>"));
  CHECK(first.find(">cost 60.0%, if 50% faster +20.0%</text>") != std::string::npos);
  const std::string end = flame_svg({a}, "end");
  CHECK(end.find(", progress at end (one of 2: --progress NAME)</text>") != std::string::npos);
  CHECK_THROWS_WITH(flame_svg({a}, "nope"), "--progress nope: no progress point 'nope' (recorded: reply, end)");
}

TEST_CASE("flame leaves out curves it cannot analyse with a note, unless --progress asks for them") {
  const bn::test::TempDir scratch;
  const std::filesystem::path& dir = scratch.path();
  const std::string a = write(dir / "a.bnp", {experiments()});
  ct::CausalData elsewhere = experiments();
  elsewhere.points = {{"other", ct::ProgressPoint::Kind::throughput}};
  const std::string b = write(dir / "b.bnp", {elsewhere});
  const std::string svg = flame_svg({a, b}, "");
  CHECK(charts_in(svg) == 0);
  CHECK(svg.find("note: causal curves left out: the causal experiments of " + a + ", " + b + " do not pool") !=
        std::string::npos);
  CHECK_THROWS_WITH(flame_svg({a, b}, "reply"),
                    doctest::Contains(("--progress reply: the causal experiments of " + a).c_str()));
}
