// The HTML and SVG outputs: self-contained, escaped, one drawn frame per frame, exact hover text.

#include <doctest/doctest.h>

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
