// The HTML and SVG outputs: self-contained, escaped, one drawn frame per frame, exact hover text.

#include <doctest/doctest.h>

#include <regex>
#include <sstream>

#include "bn/flame/build.h"
#include "bn/flame/writers.h"
#include "calltree/stack_tree.h"

namespace bn::flame {
namespace {

using calltree::testing::figure2;
using calltree::testing::tree_from_stacks;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("the page is self-contained: no external resource, the viewer and the data inline") {
  const calltree::CallTree tree = figure2();
  std::ostringstream out;
  write_html(build_flame({.tree = &tree}, std::nullopt, {.title = "figure 2"}), out);
  const std::string page = out.str();
  CHECK(page.starts_with("<!DOCTYPE html>"));
  CHECK(count(page, "src=") == 0);
  CHECK(count(page, "href=") == 0);
  CHECK(count(page, "@import") == 0);
  // The only URL is the SVG namespace, a name rather than a resource.
  CHECK(count(page, "http") == count(page, "http://www.w3.org/2000/svg"));
  CHECK(count(page, "{{") == 0);
  CHECK(page.find("<title>figure 2</title>") != std::string::npos);
  CHECK(page.find("\"names\":[\"all\"") != std::string::npos);
  CHECK(page.find("function frameColor") != std::string::npos);
}

TEST_CASE("names that look like markup cannot end the data or inject elements") {
  const calltree::CallTree tree = tree_from_stacks({{"</script><script>alert(1)</script>", 3}, {"{{DATA}};<b>", 1}});
  std::ostringstream html, svg;
  const FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {.title = "<i>t</i>"});
  write_html(g, html);
  write_svg(g, svg);
  CHECK(count(html.str(), "<script") == 2);   // the data and the viewer
  CHECK(count(html.str(), "alert(1)") == 1);  // in the data, with '<' escaped
  CHECK(html.str().find("<title>&lt;i&gt;t&lt;/i&gt;</title>") != std::string::npos);
  CHECK(count(svg.str(), "<script") == 0);
  CHECK(count(svg.str(), "<b>") == 0);
}

// Two targets as `causal` ranks them: a sequence on the critical path, and a label that is not.
CausalCharts two_targets() {
  const CausalEstimate mid{3, 0.2, 0.15, 0.25};
  CausalChart work{
      "main;work", false, {"work"}, 0.4, mid, {{0, {2, 0.0, -0.01, 0.01}}, {50, mid}, {100, {2, 0.3, {}, {}}}}, {}};
  CausalChart idle{"waiting",
                   true,
                   {},
                   0.3,
                   {1, -0.01, {}, {}},
                   {{50, {1, -0.01, {}, {}}}},
                   {{"off the critical path", "costs much, pays little"}, {"too few experiments", "record longer"}}};
  return {"causal experiments: 8 (2 at 0%, the baseline) from 1 recording, progress at end", {work, idle}};
}

FlameGraph figure2_graph(const calltree::CallTree& tree) {
  return build_flame({.tree = &tree}, std::nullopt, {.title = "figure 2", .unit = "samples"});
}

// The opening tag of the first element after `from` whose tag holds `marker`.
std::string element(const std::string& svg, const std::string& marker, std::size_t from = 0) {
  const std::size_t at = svg.find(marker, from);
  REQUIRE(at != std::string::npos);
  const std::size_t open = svg.rfind('<', at);
  return svg.substr(open, svg.find('>', at) - open + 1);
}

// Two coordinates the SVG rounds to hundredths of a pixel.
doctest::Approx px(double v) { return doctest::Approx(v).epsilon(1e-4); }

double attribute(const std::string& tag, const std::string& name) {
  std::smatch m;
  REQUIRE(std::regex_search(tag, m, std::regex(" " + name + "=\"([-0-9.]+)\"")));
  return std::stod(m[1]);
}

TEST_CASE("a recording's causal charts are drawn below the SVG's flame graph, one per target, in rank order") {
  const calltree::CallTree tree = figure2();
  FlameGraph g = figure2_graph(tree);
  std::ostringstream without;
  write_svg(g, without);
  g.causal = two_targets();
  std::ostringstream out;
  write_svg(g, out);
  const std::string svg = out.str();
  CHECK(count(svg, "<svg class=\"causal-chart\"") == 2);
  // Below every frame, and the picture taller by the charts.
  CHECK(svg.find("What would speeding it up gain?") > svg.rfind("<g class=\"frame\">"));
  CHECK(attribute(element(svg, "<svg xmlns"), "height") > attribute(element(without.str(), "<svg xmlns"), "height"));
  CHECK(svg.find(">causal experiments: 8 (2 at 0%, the baseline) from 1 recording, progress at end<") !=
        std::string::npos);
  CHECK(svg.find(">1. [main;work]</text>") < svg.find(">2. waiting</text>"));
  CHECK(svg.find(">cost 40.0%, if 50% faster +20.0%</text>") != std::string::npos);
  CHECK(svg.find(">cost 30.0%, if 50% faster -1.0%</text>") != std::string::npos);
  CHECK(svg.find(">off the critical path, too few experiments</text>") != std::string::npos);
  CHECK(svg.find(">7 experiments</text>") != std::string::npos);
  // Hover: every number in full, and what the flags mean.
  CHECK(svg.find("<title>2. waiting (label)\ncost 30.0%, if 50% faster -1.0% (1 experiment)\noff the critical path: "
                 "costs much, pays little\ntoo few experiments: record longer\n1 experiment in all</title>") !=
        std::string::npos);
  CHECK(svg.find("<title>50% faster: program +20.0% [+15.0%, +25.0%], 3 experiments</title>") != std::string::npos);
  CHECK(svg.find("<title>100% faster: program +30.0%, 2 experiments</title>") != std::string::npos);
}

TEST_CASE("a causal chart puts each point at its virtual speedup and program speedup on the axes it labels") {
  const calltree::CallTree tree = figure2();
  FlameGraph g = figure2_graph(tree);
  g.causal = two_targets();
  std::ostringstream out;
  write_svg(g, out);
  const std::string svg = out.str();
  const std::size_t first = svg.find("<svg class=\"causal-chart\""),
                    second = svg.find("<svg class=\"causal-chart\"", first + 1);
  const std::string chart = svg.substr(first, second - first);
  // Ticks every 20% from -20% to +40%, the cost share's 40% at 100% included; labelled at their height + 4.
  CHECK(count(chart, "class=\"tick-y\"") == 4);
  const double y20 = attribute(element(chart, ">+20%</text>"), "y") - 4;
  const double y40 = attribute(element(chart, ">+40%</text>"), "y") - 4;
  const double zero = attribute(element(chart, "class=\"zero\""), "y1");
  CHECK(attribute(element(chart, ">0%</text>", chart.find("class=\"tick-y\"")), "y") - 4 == px(zero));
  const double x0 = attribute(element(chart, ">0%</text>", chart.find("class=\"tick-x\"")), "x");
  const double x50 = attribute(element(chart, ">50%</text>"), "x");
  const double x100 = attribute(element(chart, ">100%</text>"), "x");
  // +20% at 50%; +30% at 100%, halfway between the ticks of 20% and 40%.
  const std::string at50 = element(chart, "<circle", chart.find("data-speedup=\"50\""));
  CHECK(attribute(at50, "cx") == px(x50));
  CHECK(attribute(at50, "cy") == px(y20));
  const std::string at100 = element(chart, "<circle", chart.find("data-speedup=\"100\""));
  CHECK(attribute(at100, "cx") == px(x100));
  CHECK(attribute(at100, "cy") == px((y20 + y40) / 2));
  // Its interval as a bar from +15% to +25%, a quarter of a tick either side.
  const std::string bar = element(chart, "<line", chart.find("data-speedup=\"50\""));
  CHECK(attribute(bar, "y1") == px(y20 + (zero - y20) / 4));
  CHECK(attribute(bar, "y2") == px(y20 - (zero - y20) / 4));
  // The cost share's promise: from no gain at 0% to the whole 40% at 100%.
  const std::string cost = element(chart, "<line", chart.find("<g class=\"cost\">"));
  CHECK(attribute(cost, "x1") == px(x0));
  CHECK(attribute(cost, "y1") == px(zero));
  CHECK(attribute(cost, "x2") == px(x100));
  CHECK(attribute(cost, "y2") == px(y40));
}

TEST_CASE("a page without causal experiments has no trace of the charts; one with them, a section and its script") {
  const calltree::CallTree tree = figure2();
  FlameGraph g = figure2_graph(tree);
  std::ostringstream plain;
  write_html(g, plain);
  for (const char* trace : {"causal", "What would", "{{"}) {
    INFO(trace);
    CHECK(count(plain.str(), trace) == 0);
  }
  g.causal = two_targets();
  std::ostringstream out;
  write_html(g, out);
  const std::string page = out.str();
  CHECK(count(page, "<section id=\"causal\">") == 1);
  CHECK(count(page, "<h2>What would speeding it up gain?</h2>") == 1);
  CHECK(page.find("<section id=\"causal\">") > page.find("<div id=\"legend\"></div>"));
  CHECK(count(page, "<svg class=\"causal-chart\"") == 2);
  CHECK(count(page, "<script") == 2);  // the data, and the viewer with the charts' link in it
  CHECK(page.find("svg.causal-chart[data-frames]") != std::string::npos);
  // Only a target whose frames a search can name is clickable.
  CHECK(count(page, "data-frames=\"[&quot;work&quot;]\"") == 1);
  CHECK(count(page, "data-frames") == 1 + 2);  // the chart, and the script and style that select by it
  CHECK(count(page, "{{") == 0);
}

TEST_CASE("a causal chart fits a long target in its width, keeping the innermost call's Class.method") {
  const calltree::CallTree tree = figure2();
  FlameGraph g = figure2_graph(tree);
  g.causal.targets.push_back(
      {"main;org.apache.xalan.transformer.TransformerImpl.transform;"
       "org.apache.xpath.objects.XNodeSet.compareWith",
       false,
       {},
       0.1,
       {},
       {},
       {}});
  g.causal.targets.push_back({"a label whose name is much longer than a chart is wide", true, {}, 0, {}, {}, {}});
  std::ostringstream out;
  write_svg(g, out);
  // 40 columns after the rank: packages shorten, outermost first, as the REPL shortens names.
  CHECK(out.str().find(">1. […;o.a.x.objects.XNodeSet.compareWith]</text>") != std::string::npos);
  CHECK(out.str().find(">2. a label whose name i…han a chart is wide</text>") != std::string::npos);
  // Without estimates there is nothing to plot, and the if-50% number says so.
  CHECK(out.str().find(">cost 10.0%, if 50% faster n/a</text>") != std::string::npos);
  CHECK(count(out.str(), "<circle") == 0);
}

TEST_CASE("the SVG draws every frame with its costs as the hover title") {
  const calltree::CallTree tree = figure2();
  std::ostringstream out;
  FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {.focus = {"c"}, .unit = "samples"});
  g.focus_cum = 97;
  g.focus_base = 15;
  write_svg(g, out);
  const std::string svg = out.str();
  // Callees: c, d, e; callers (root not drawn twice): b, a over b, a.
  CHECK(count(svg, "<g class=\"frame\">") == 6);
  CHECK(svg.find("<title>c\nsummary: cum 97 samples, base 15 samples</title>") != std::string::npos);
  CHECK(svg.find("<title>d\ncum 50 samples (51.5%), base 50 samples</title>") != std::string::npos);
  // A caller's hover says what of the summary goes through it, without a base.
  CHECK(svg.find("<title>b\ncum 60 samples (61.9%) of the summary through these callers</title>") != std::string::npos);
}

TEST_CASE("the SVG's hover texts print amounts as the REPL does: durations in their unit, counts named") {
  const calltree::CallTree ns = tree_from_stacks({{"main;work", 60'469'348'886}, {"main;idle", 12'345'678}});
  std::ostringstream times;
  write_svg(build_flame({.tree = &ns}, std::nullopt, {.metric = "cpu-time", .unit = "ns"}), times);
  CHECK(times.str().find("<title>all\ncum 60.5 s (100.0%), base 0 s</title>") != std::string::npos);
  CHECK(times.str().find("<title>work\ncum 60.5 s (100.0%), base 60.5 s</title>") != std::string::npos);
  CHECK(times.str().find("<title>idle\ncum 12.3 ms (0.0%), base 12.3 ms</title>") != std::string::npos);
  // pprof's unit "count" is named by its sample type, as the REPL names it; typed time is fractional.
  const calltree::CallTree calls = tree_from_stacks({{"a", 3}});
  std::ostringstream counts;
  write_svg(build_flame({.tree = &calls}, std::nullopt, {.metric = "calls", .unit = "count", .denominator = 2}),
            counts);
  CHECK(counts.str().find("<title>a\ncum 1.50 calls (100.0%), base 1.50 calls</title>") != std::string::npos);
}

TEST_CASE("a comparison in a duration metric prints its legend and runs in time units") {
  const calltree::CallTree a = tree_from_stacks({{"m;x", 10'000'000}, {"m;y", 4'000'000}});
  const calltree::CallTree b = tree_from_stacks({{"m;x", 3'000'000}, {"m;z", 5'000'000}});
  std::ostringstream out;
  write_svg(build_flame({.tree = &a}, TreeSide{.tree = &b}, {.metric = "wall", .unit = "ns"}), out);
  CHECK(out.str().find("darkest at |A − B| = 7.00 ms;") != std::string::npos);
  CHECK(out.str().find("<title>x\ncum 7.00 ms (116.7%), base 7.00 ms\nA: cum 10.0 ms, base 10.0 ms\nB: cum 3.00 "
                       "ms, base 3.00 ms</title>") != std::string::npos);
}

TEST_CASE("the SVG's frame labels shorten packages first and keep Class.method, as the REPL does") {
  // 1180 pixels of frames: 221 for the long name (32 columns), 37 for `tiny` (4 columns).
  const calltree::CallTree tree =
      tree_from_stacks({{"main;other", 25}, {"main;org.apache.xpath.objects.XNodeSet.compare", 6}, {"main;tiny", 1}});
  std::ostringstream out;
  write_svg(build_flame({.tree = &tree}, std::nullopt, {}), out, {.width = 1200});
  CHECK(out.str().find(">o.a.x.objects.XNodeSet.compare</text>") != std::string::npos);
  CHECK(out.str().find(">tiny</text>") == std::string::npos);  // under 5 columns: no text
  CHECK(out.str().find("<title>tiny\n") != std::string::npos);
}

TEST_CASE("a comparison's SVG outlines the paths of one run and explains its colours") {
  const calltree::CallTree a = tree_from_stacks({{"m;x", 10}, {"m;y", 4}});
  const calltree::CallTree b = tree_from_stacks({{"m;x", 3}, {"m;z", 5}});
  std::ostringstream out;
  write_svg(build_flame({.tree = &a}, TreeSide{.tree = &b}, {}), out);
  CHECK(count(out.str(), "stroke-dasharray") == 2);  // y only in A, z only in B
  CHECK(out.str().find("only in B</title>") != std::string::npos);
  CHECK(out.str().find("darkest at |A − B| = 7") != std::string::npos);
}

}  // namespace
}  // namespace bn::flame

TEST_CASE("a flame graph is written as HTML or SVG by its name's extension, and any other is refused") {
  CHECK(bn::flame::flame_file_for(".html") == bn::flame::FlameFile::html);
  CHECK(bn::flame::flame_file_for(".htm") == bn::flame::FlameFile::html);
  CHECK(bn::flame::flame_file_for(".svg") == bn::flame::FlameFile::svg);
  CHECK_FALSE(bn::flame::flame_file_for(".png").has_value());
  CHECK_FALSE(bn::flame::flame_file_for("").has_value());
  CHECK(bn::flame::flame_extensions_text() == ".html, .htm or .svg");
}
