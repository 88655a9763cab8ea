#include "bn/repl/render.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

using bn::repl::ListOutput;
using bn::repl::RenderContext;
using bn::repl::Row;

namespace {

// Costs over a denominator of 4 (typed time gives such fractions), one of them negative as a
// comparative profile may produce: cum -6/4 below base 1/4.
ListOutput sample_list() {
  static const std::string m = "pkg.Cls.method";
  return ListOutput{"t",
                    {Row{0, {7}, {m}, -6, 1, false, std::nullopt, std::nullopt},
                     Row{1, {8}, {m, m}, 3, 3, true, std::nullopt, std::nullopt}}};
}

RenderContext context() {
  RenderContext c;
  c.total = 8;
  c.percent_base = {8, "total"};
  c.denominator = 4;
  c.names = bn::search::NameStyle::kShort;
  return c;
}

}  // namespace

TEST_CASE("text shows fractions rounded and negative costs unclamped, with exact percentages") {
  std::ostringstream out;
  bn::repl::render_text(sample_list(), context(), out);
  CHECK(out.str() ==
        "t:\n"
        "  #    cum      %   base     %  summary\n"
        "  0  -1.50 -75.0%  0.250 12.5%  [Cls.method]\n"
        "  1  0.750  37.5%  0.750 37.5%  [Cls.method;Cls.method]  (unreliable: under 10 samples)\n");
}

TEST_CASE("a table names a count's unit once in its header, and a duration in every cell") {
  RenderContext c = context();
  c.unit = bn::iface::display_unit("samples", "samples");
  std::ostringstream samples;
  bn::repl::render_text(sample_list(), c, samples);
  CHECK(samples.str().find("  summary (in samples)\n") != std::string::npos);
  c.denominator = 1;
  c.unit = bn::iface::display_unit("cpu-time", "ns");
  const ListOutput list{"t", {Row{0, {7}, {"pkg.Cls.method"}, 60'469'348'886, 12'345'678, false, {}, {}}}};
  std::ostringstream ns;
  bn::repl::render_text(list, c, ns);
  CAPTURE(ns.str());
  CHECK(ns.str().find("  summary\n") != std::string::npos);
  CHECK(ns.str().find("60.5 s") != std::string::npos);
  CHECK(ns.str().find("12.3 ms") != std::string::npos);
}

TEST_CASE("JSON carries exact reduced fractions as strings and full method names") {
  const nlohmann::json j =
      nlohmann::json::parse(bn::repl::render_json(sample_list(), "suggest", "suggest 2", context()));
  CHECK(j["total"] == "2");
  CHECK(j["summaries"][0]["cum"] == "-3/2");
  CHECK(j["summaries"][0]["base"] == "1/4");
  CHECK(j["summaries"][1]["path"] == nlohmann::json({"pkg.Cls.method", "pkg.Cls.method"}));
  CHECK(j["summaries"][1]["unreliable"] == true);
}

TEST_CASE("percentages are of the profile's percent base, named after it") {
  RenderContext c = context();
  c.total = 0;  // a comparison normalised so that A - B sums to 0
  c.percent_base = {16, "A"};
  bn::repl::LabelGroup group;
  group.label = "L";
  group.total_cum = 4;
  group.total_base = 2;
  const bn::repl::LabelsOutput labels{{group}, 4, 2, {}};
  std::ostringstream out;
  bn::repl::render_text(labels, c, out);
  CAPTURE(out.str());
  CHECK(out.str().find("label L: cum 1 (25.0% of A), base 0.500 (12.5% of A)") != std::string::npos);
  CHECK(out.str().find("all labels together: cum 1 (25.0% of A)") != std::string::npos);
}

TEST_CASE("labels that share cost are listed pairwise in text and JSON, and nothing when none do") {
  bn::repl::LabelGroup a, b;
  a.label = "A";
  b.label = "B";
  bn::repl::LabelsOutput labels{{a, b}, 4, 2, {{"A", "B", 2, -1}}};
  std::ostringstream out;
  bn::repl::render_text(labels, context(), out);
  CAPTURE(out.str());
  CHECK(out.str().find("labels that share cost (each measurement once):\n  A and B: cum 0.500 (25.0% of total), base "
                       "-0.250 (-12.5% of total)\n") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(bn::repl::render_json(labels, "labels", "labels", context()));
  CHECK(j["overlaps"] == nlohmann::json::parse(R"([{"labels":["A","B"],"cum":"1/2","base":"-1/4"}])"));
  labels.overlaps.clear();
  std::ostringstream none;
  bn::repl::render_text(labels, context(), none);
  CHECK(none.str().find("share cost") == std::string::npos);
  CHECK(nlohmann::json::parse(bn::repl::render_json(labels, "labels", "labels", context()))["overlaps"].empty());
}

TEST_CASE("JSON gives a message's yes/no facts as booleans and counts as numbers") {
  const bn::repl::MessageOutput saved{
      "saved", {{"file", std::string("l.txt")}, {"summaries", std::size_t{3}}, {"added", false}}};
  const nlohmann::json j = nlohmann::json::parse(bn::repl::render_json(saved, "save", "save l.txt", context()));
  CHECK(j["file"] == "l.txt");
  CHECK(j["summaries"] == 3);
  CHECK(j["added"] == false);
}

TEST_CASE("colour is warmer for a larger share of the total and absent when disabled") {
  RenderContext c = context();
  c.color = true;
  std::ostringstream out;
  bn::repl::render_text(sample_list(), c, out);
  CHECK(out.str().find("\033[1;31m-1.50") != std::string::npos);  // |-6| / 8 >= 50%: bold red
  CHECK(out.str().find("\033[31m0.750") != std::string::npos);    // 3 / 8 >= 20%: red
  std::ostringstream plain;
  bn::repl::render_text(sample_list(), context(), plain);
  CHECK(plain.str().find('\033') == std::string::npos);
}
