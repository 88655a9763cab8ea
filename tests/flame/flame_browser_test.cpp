// The HTML flame graph in a real browser: Debian's headless Chromium opens pages written by the
// real `bottlenecks flame`, and the test clicks, types and hovers through the DevTools protocol
// (devtools_pipe.h) like a user, then reads what is drawn; the page's ports of the REPL's
// formatters are held to the C++ ones. Skipped (exit status 77) when chromium-headless-shell
// is not installed.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>
#include <vector>

#include "bn/iface/amount.h"
#include "bn/iface/name_fit.h"
#include "bn/iface/units.h"
#include "devtools_pipe.h"
#include "temp_dir.h"

namespace bn::testing {
namespace {

std::filesystem::path chromium() {
  if (const char* path = std::getenv("BN_CHROMIUM")) return path;
  return "/usr/bin/chromium-headless-shell";
}

const std::string kBin = std::string(BN_BINARY_DIR) + "/bottlenecks";

void write_file(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text of every <title> of an SVG written by xml_text (flame/src/xml_text.h), in order.
std::vector<std::string> svg_titles(const std::string& svg) {
  const std::vector<std::pair<std::string, std::string>> entities{
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  std::vector<std::string> titles;
  for (std::size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at)) {
    at += 7;
    std::string text = svg.substr(at, svg.find("</title>", at) - at);
    for (const auto& [entity, c] : entities)
      for (std::size_t e = text.find(entity); e != std::string::npos; e = text.find(entity, e + c.size()))
        text.replace(e, entity.size(), c);
    titles.push_back(text);
  }
  return titles;
}

// Runs a shell command; its standard output.
std::string run(const std::string& command, const std::filesystem::path& dir) {
  const std::filesystem::path out = dir / "command.out";
  const int status = std::system((command + " >" + out.string() + " 2>&1").c_str());
  const std::string text = read_file(out);
  INFO(command << "\n" << text);
  REQUIRE(status == 0);
  return text;
}

class Page {
 public:
  Page(DevtoolsPipe& pipe, const std::filesystem::path& file) : pipe_(pipe) {
    const std::string target = pipe.call("Target.createTarget", {{"url", "file://" + file.string()}})["targetId"];
    session_ = pipe.call("Target.attachToTarget", {{"targetId", target}, {"flatten", true}})["sessionId"];
    wait_for("document.readyState === 'complete' && document.querySelectorAll('g.frame').length > 0");
  }

  nlohmann::json eval(const std::string& expression) {
    const nlohmann::json r =
        pipe_.call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}}, session_);
    if (r.contains("exceptionDetails")) throw std::runtime_error(expression + ": " + r["exceptionDetails"].dump());
    return r["result"].value("value", nlohmann::json());
  }
  void wait_for(const std::string& condition) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (eval("!!(" + condition + ")") != true) {
      if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("timed out waiting for " + condition);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  // The centre of the rectangle of the first frame matching a CSS selector.
  std::pair<double, double> centre(const std::string& selector) {
    const nlohmann::json xy = eval("(() => { const r = document.querySelector('" + selector +
                                   "').querySelector('rect').getBoundingClientRect(); return [r.x + r.width / 2, r.y "
                                   "+ r.height / 2]; })()");
    return {xy[0].get<double>(), xy[1].get<double>()};
  }
  void mouse(const std::string& type, std::pair<double, double> at) {
    nlohmann::json params{{"type", type}, {"x", at.first}, {"y", at.second}, {"button", "left"}};
    if (type != "mouseMoved") params["clickCount"] = 1;
    pipe_.call("Input.dispatchMouseEvent", params, session_);
  }
  void hover(const std::string& selector) { mouse("mouseMoved", centre(selector)); }
  void click(const std::string& selector) {
    const auto at = centre(selector);
    mouse("mouseMoved", at);
    mouse("mousePressed", at);
    mouse("mouseReleased", at);
  }
  // Types into the search field as a keyboard would.
  void search(const std::string& text) {
    eval("document.getElementById('search').focus()");
    pipe_.call("Input.insertText", {{"text", text}}, session_);
  }
  double width_of(const std::string& selector) {
    return std::stod(eval("document.querySelector('" + selector + "').querySelector('rect').getAttribute('width')")
                         .get<std::string>());
  }
  double full_width() { return std::stod(eval("document.getElementById('chart').dataset.width").get<std::string>()); }
  std::string text_of(const std::string& selector) {
    return eval("document.querySelector('" + selector + "').textContent").get<std::string>();
  }
  int count(const std::string& selector) {
    return eval("document.querySelectorAll('" + selector + "').length").get<int>();
  }

 private:
  DevtoolsPipe& pipe_;
  std::string session_;
};

// Recursion (a below a) and a method reached twice, so that overlap matters to the share.
const char* const kRunA =
    "main;a;b;a;c 10\n"
    "main;a;c 5\n"
    "main;b;a 7\n"
    "main;d 3\n"
    "main;a 2\n";
const char* const kRunB =
    "main;a;c 9\n"
    "main;a;e 4\n"
    "main;d 3\n";

TEST_CASE("in a browser: a click zooms, the search shows the REPL's coverage, hovering shows costs") {
  bn::test::TempDir dir;
  write_file(dir.path() / "a.collapsed", kRunA);
  run(kBin + " flame " + (dir.path() / "a.collapsed").string() + " -o " + (dir.path() / "whole.html").string(),
      dir.path());
  // The REPL's coverage of the same methods, overlap counted once (seed 004 sec. 2.3).
  const std::string transcript = run(
      kBin + " repl " + (dir.path() / "a.collapsed").string() + " --json -c 'path a; label s; path c; label s; labels'",
      dir.path());
  // The labels line only: the REPL's note on unsaved labels (stderr, merged here) may follow it.
  const std::size_t at = transcript.rfind("{\"command\":\"labels\"");
  const nlohmann::json labels = nlohmann::json::parse(transcript.substr(at, transcript.find('\n', at) - at));
  const iface::Amount cum = std::stoll(labels["coverage"]["cum"].get<std::string>()),
                      total = std::stoll(labels["total"].get<std::string>());
  const iface::DisplayUnit samples = iface::display_unit("samples", "samples");
  const std::string expected = "matched " + iface::percent_string(cum, total) + " (" +
                               iface::amount_text(cum, 1, samples) + " of " + iface::amount_text(total, 1, samples) +
                               ")";

  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "whole.html");
  // Preorder, children by name: all, main, a, a;b, a;b;a, a;b;a;c, a;c, b, b;a, d.
  CHECK(page.count("g.frame") == 10);
  CHECK(page.width_of("g.frame[data-index=\"0\"]") == doctest::Approx(page.full_width()));

  SUBCASE("hovering shows the frame's cum and base") {
    page.hover("g.frame[data-index=\"6\"]");  // all;main;a;c (preorder, children by name)
    CHECK(page.text_of("#details") == "c\ncum 5 samples (18.5%), base 5 samples");
  }
  SUBCASE("searching shows the matched share, equal to the REPL's coverage") {
    page.search("^(a|c)$");
    page.wait_for("document.getElementById('matched').textContent !== ''");
    CHECK(page.text_of("#matched") == expected);
    CHECK(page.count("g.frame.matched") == 5);  // every a and c frame is highlighted
    page.search("(");
    CHECK(page.text_of("#matched").starts_with("not a regular expression"));
  }
  SUBCASE("a click zooms into the frame: it takes the full width, its ancestors too, others leave") {
    const int before = page.count("g.frame");
    page.click("g.frame[data-name=\"b\"]");  // all;main;a;b, the first b in preorder
    page.wait_for("document.querySelectorAll('g.frame').length < " + std::to_string(before));
    const std::string b = "g.frame[data-index=\"3\"]";
    CHECK(page.text_of(b + " text") == "b");
    CHECK(page.width_of(b) == doctest::Approx(page.full_width()));
    CHECK(page.width_of("g.frame[data-index=\"2\"]") == doctest::Approx(page.full_width()));  // a, its caller
    CHECK(page.count("g.frame[data-name=\"d\"]") == 0);
    // Clicking the root zooms out again.
    page.click("g.frame[data-index=\"0\"]");
    page.wait_for("document.querySelectorAll('g.frame').length === " + std::to_string(before));
  }
}

TEST_CASE("in a browser: a sandwich of A minus B marks paths of one run and zooms the callers") {
  bn::test::TempDir dir;
  write_file(dir.path() / "a.collapsed", kRunA);
  write_file(dir.path() / "b.collapsed", kRunB);
  run(kBin + " flame " + (dir.path() / "a.collapsed").string() + " --base " + (dir.path() / "b.collapsed").string() +
          " --focus a -o " + (dir.path() / "diff.html").string(),
      dir.path());
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "diff.html");
  // a;e occurs in B only, a;b in A only: outlined, and said so on hover.
  CHECK(page.count("g.frame.only-b[data-name=\"e\"]") == 1);
  CHECK(page.count("g.frame.only-a[data-name=\"b\"][data-part=\"callees\"]") == 1);
  page.hover("g.frame.only-b[data-name=\"e\"]");
  CHECK(page.text_of("#details").ends_with("only in B"));
  CHECK(page.text_of("#legend").find("A − B") != std::string::npos);
  // Callers are drawn above the focus, callees below.
  const double focus_y = page.centre("g.frame[data-part=\"callees\"][data-index=\"0\"]").second;
  CHECK(page.centre("g.frame[data-part=\"callers\"][data-name=\"main\"]").second < focus_y);
  CHECK(page.centre("g.frame[data-part=\"callees\"][data-name=\"c\"]").second > focus_y);
  page.hover("g.frame[data-part=\"callers\"][data-name=\"b\"]");
  CHECK(page.text_of("#details")
            .starts_with("b\ncum 7 samples (63.6%) of the summary through these callers\nA: cum 7 samples\n"));
  // Zooming into a caller widens it to the full width.
  const std::string caller = "g.frame[data-part=\"callers\"][data-name=\"b\"]";
  REQUIRE(page.count(caller) == 1);
  const double narrow = page.width_of(caller);
  page.click(caller);
  page.wait_for("Math.abs(document.querySelector('" + caller + "').querySelector('rect').getAttribute('width') - " +
                "document.getElementById('chart').dataset.width) < 0.01");
  CHECK(narrow < page.full_width());
}

TEST_CASE("in a browser: labels saved by the REPL colour their paths and are listed") {
  bn::test::TempDir dir;
  write_file(dir.path() / "a.collapsed", kRunA);
  const std::string profile = (dir.path() / "a.collapsed").string();
  run(kBin + " repl " + profile + " -c 'path b;a; label hot; save " + (dir.path() / "l.labels").string() + "'",
      dir.path());
  run(kBin + " flame " + profile + " --labels " + (dir.path() / "l.labels").string() + " -o " +
          (dir.path() / "l.html").string(),
      dir.path());
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "l.html");
  // b;a occurs twice: main;a;b;a and main;b;a; both b and both a below them take the colour.
  CHECK(page.eval("[...document.querySelectorAll('g.frame rect')].filter(r => r.getAttribute('fill') === "
                  "'#1f77b4').length") == 4);
  CHECK(page.text_of("#legend") == "label hot");
}

TEST_CASE("in a browser: hovering a frame of a duration metric says what the SVG's title says") {
  bn::test::TempDir dir;
  const std::string mail = std::string(BN_SOURCE_DIR) + "/samples/mail/mail.bnp";  // CPU time, in ns
  run(kBin + " flame " + mail + " -o " + (dir.path() / "mail.html").string(), dir.path());
  run(kBin + " flame " + mail + " -o " + (dir.path() / "mail.svg").string(), dir.path());
  const std::vector<std::string> svg = svg_titles(read_file(dir.path() / "mail.svg"));
  REQUIRE(!svg.empty());
  INFO(svg.front());
  CHECK(svg.front().find(" ns") == std::string::npos);  // the whole run's CPU time is not in nanoseconds
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "mail.html");
  page.hover("g.frame[data-part=\"callees\"][data-index=\"0\"]");
  CHECK(page.text_of("#details") == svg.front());
  // Every frame the page draws (narrower than the SVG: the same frames or fewer) has its title.
  const nlohmann::json titles = page.eval("[...document.querySelectorAll('g.frame > title')].map(t => t.textContent)");
  REQUIRE(titles.size() > 1);
  for (const nlohmann::json& title : titles) {
    INFO(title.get<std::string>());
    CHECK(std::find(svg.begin(), svg.end(), title.get<std::string>()) != svg.end());
  }
}

TEST_CASE("in a browser: a causal recording's charts render below the flame graph and a click highlights a target") {
  bn::test::TempDir dir;
  const std::string rounds = std::string(BN_SOURCE_DIR) + "/samples/rounds/rounds.bnp";
  run(kBin + " flame " + rounds + " -o " + (dir.path() / "rounds.html").string(), dir.path());
  // The REPL's curve of the first target, for the numbers a point's hover must repeat.
  const std::string transcript = run(kBin + " repl " + rounds + " --json -c causal", dir.path());
  const std::size_t at = transcript.rfind('\n', transcript.rfind("\"command\":\"causal\"")) + 1;
  const nlohmann::json first =
      nlohmann::json::parse(transcript.substr(at, transcript.find('\n', at) - at))["targets"][0];
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "rounds.html");
  CHECK(page.count("#causal svg.causal-chart") == 2);
  const std::string chart = "svg.causal-chart[data-rank=\"1\"]";
  CHECK(page.text_of(chart + " text.target") == "1. " + first["label"].get<std::string>());
  CHECK(page.count(chart + " g.causal-point") == static_cast<int>(first["points"].size()));
  // Drawn below the flame graph, at its own size, every point inside it.
  const nlohmann::json box = page.eval("(() => { const c = document.querySelector('" + chart +
                                       "').getBoundingClientRect(); const f = document.getElementById('chart')"
                                       ".getBoundingClientRect(); return [c.top, c.width, c.height, f.bottom]; })()");
  CHECK(box[0].get<double>() > box[3].get<double>());
  CHECK(box[1].get<double>() == 300);
  CHECK(box[2].get<double>() == 200);
  CHECK(page.eval("[...document.querySelectorAll('" + chart +
                  " circle')].every(p => { const r = "
                  "p.getBoundingClientRect(), c = p.ownerSVGElement.getBoundingClientRect(); return r.width > 0 && "
                  "r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom; })") == true);
  // The point at 50% sits under the axis label "50%", and its hover says what `causal 1` says of it.
  const std::string point = chart + " g.causal-point[data-speedup=\"50\"]";
  const nlohmann::json xs = page.eval(
      "(() => { const centre = (e) => { const r = e.getBoundingClientRect(); return r.left + r.width / 2; }; "
      "return [centre(document.querySelector('" +
      point + " circle')), centre([...document.querySelectorAll('" + chart +
      " text.tick-x')].find(t => t.textContent === '50%'))]; })()");
  CHECK(xs[0].get<double>() == doctest::Approx(xs[1].get<double>()).epsilon(0.002));
  const nlohmann::json& at50 = *std::find_if(first["points"].begin(), first["points"].end(),
                                             [](const nlohmann::json& p) { return p["speedup"] == 0.5; });
  const auto percent = [](double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f%%", 100 * fraction);
    return std::string(text);
  };
  CHECK(page.text_of(point + " > title") == "50% faster: program " + percent(at50["program_speedup"]) + " [" +
                                                percent(at50["low"]) + ", " + percent(at50["high"]) + "], " +
                                                std::to_string(at50["experiments"].get<int>()) + " experiments");

  SUBCASE("a click on a chart searches for its target's frames, whose share is the chart's cost share") {
    // Below the first screen: scrolled to, as a user would.
    page.eval("document.querySelector('" + chart + "').scrollIntoView()");
    page.click(chart);
    page.wait_for("document.getElementById('matched').textContent !== ''");
    CHECK(page.eval("document.getElementById('search').value") == "^(CausalRounds\\.longWork)$");
    CHECK(page.count("g.frame.matched") > 0);
    CHECK(page.count("g.frame.matched:not([data-name=\"CausalRounds.longWork\"])") == 0);
    CHECK(page.text_of("#matched")
              .starts_with("matched " +
                           iface::percent_string(std::llround(first["cost_share"].get<double>() * 1e6), 1'000'000)));
    CHECK(page.count(chart + ".selected") == 1);
    // A second click clears it.
    page.click(chart);
    page.wait_for("document.getElementById('matched').textContent === ''");
    CHECK(page.count("g.frame.matched") == 0);
    CHECK(page.count(chart + ".selected") == 0);
  }
}

// Amounts that cross every rule of units.cpp: unit thresholds, halves, 999.5, counts from 100
// on, fractions, signs, zero denominators, and numbers beyond 64 and 128 bits of intermediates.
std::vector<std::pair<iface::Amount, iface::Amount>> amounts_to_compare() {
  constexpr iface::Amount kMs = 1'000'000, kS = 1'000'000'000, kBig = iface::Amount{1} << 100;
  constexpr iface::Amount kMax = std::numeric_limits<iface::Amount>::max();
  return {{0, 1},
          {1, 1},
          {999, 1},
          {1'000, 1},
          {12'345, 1},
          {999'499, 1},
          {999'500, 1},
          {1'994'999, 1},
          {1'995'000, 1},
          {999'499'999, 1},
          {999'500'000, 1},
          {-999'500'000, 1},
          {60'469'348'886, 1},
          {99'949 * kMs, 1},
          {99'950 * kMs, 1},
          {5'996 * kS, 1},
          {5'997 * kS, 1},
          {6'000 * kS, 1},
          {kS * 3'600 * 1'234'567, 1},
          {1, 2},
          {1'997, 2},
          {1'999, 2},
          {2 * kS, 3},
          {7, 10},
          {29, 3},
          {134, 3},
          {-1, 2},
          {1, 200},
          {1'999, 20},
          {24'689, 2},
          {24'691, 2},
          {-24'691, 2},
          {12'345'678, -1},
          {-944'682'275'611'608'779, 4'229'421'927'726'096'930},
          {1'023, 1},
          {1'024, 1},
          {1'536, 1},
          {iface::Amount{3} << 30, 1},
          {iface::Amount{5} << 60, 1},
          {kBig, kBig / kS},
          {kMax, 1},
          {-kMax, 1},
          {1, kMax},
          {1, 0}};
}

TEST_CASE("in a browser: the page prints every amount as iface::amount_text does") {
  struct Unit {
    iface::DisplayUnit unit;
    const char* kind;  // as html_writer.cpp writes it
  };
  const std::vector<Unit> units{
      {{iface::UnitKind::duration, "ns", 1}, "duration"}, {{iface::UnitKind::duration, "ms", 1'000'000}, "duration"},
      {{iface::UnitKind::count, "samples", 1}, "count"},  {{iface::UnitKind::count, "", 1}, "count"},
      {{iface::UnitKind::rate, "CPUs", 1}, "rate"},       {{iface::UnitKind::bytes, "bytes", 1}, "bytes"}};
  nlohmann::json cases = nlohmann::json::array();
  std::vector<std::string> expected;
  for (const Unit& u : units)
    for (const auto& [n, d] : amounts_to_compare()) {
      if (u.unit.scale != 1 && iface::abs_amount(n) > (iface::Amount{1} << 100)) continue;  // n · scale overflows
      cases.push_back({iface::to_string(n), iface::to_string(d), u.kind, u.unit.name, iface::to_string(u.unit.scale)});
      expected.push_back(iface::amount_text(n, d, u.unit));
    }
  bn::test::TempDir dir;
  write_file(dir.path() / "a.collapsed", kRunA);
  run(kBin + " flame " + (dir.path() / "a.collapsed").string() + " -o " + (dir.path() / "a.html").string(), dir.path());
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "a.html");
  const nlohmann::json texts =
      page.eval(cases.dump() +
                ".map(([n, d, kind, name, scale]) => window.bnFlame.amountText(BigInt(n), BigInt(d), "
                "{ kind, name, scale: BigInt(scale) }))");
  REQUIRE(texts.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO(cases[i].dump());
    CHECK(texts[i].get<std::string>() == expected[i]);
  }
}

TEST_CASE("in a browser: a long name's label keeps its Class.method, as the REPL shortens it") {
  bn::test::TempDir dir;
  const std::string name = "org.apache.xpath.objects.XNodeSet.compare";
  write_file(dir.path() / "a.collapsed", "main;other 25\nmain;" + name + " 6\nmain;tiny 1\n");
  run(kBin + " flame " + (dir.path() / "a.collapsed").string() + " -o " + (dir.path() / "a.html").string(), dir.path());
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "a.html");
  const std::string frame = "g.frame[data-name=\"" + name + "\"]";
  const double width = page.width_of(frame);
  const std::string label = page.text_of(frame + " text");
  INFO(label << " in " << width << " pixels");
  CHECK(label.ends_with(".XNodeSet.compare"));
  CHECK(label.size() < name.size());
  CHECK(label == iface::elide_name(name, static_cast<std::size_t>((width - 6) / 6.6)));
  CHECK(page.count("g.frame[data-name=\"tiny\"] text") == 0);  // under 5 columns: no text
}

TEST_CASE("in a browser: the page fits names in columns as iface::elide_name does") {
  const std::vector<std::string> names{"org.apache.xpath.objects.XNodeSet.compare",
                                       "java.lang.SecurityManager.checkRead",
                                       "SecurityManager.checkRead",
                                       "java.lang.ref.Reference$ReferenceHandler",
                                       "com.example.Foo.bar(Ljava/lang.String;I)V",
                                       "@java.lang.String.getBytes",
                                       "_1.$x.Über.straße.größe.mäßig",
                                       "µµµµµµµµµµ",
                                       "a..b...c.d",
                                       "[12 frames merged]",
                                       "main;org.apache.Foo.run"};
  nlohmann::json cases = nlohmann::json::array();
  std::vector<std::string> expected;
  for (const std::string& name : names)
    for (std::size_t width = 0; width <= iface::columns(name) + 1; ++width)
      for (const std::size_t kept : {std::size_t{1}, std::size_t{2}}) {
        cases.push_back({name, width, kept});
        expected.push_back(iface::elide_name(name, width, kept));
      }
  bn::test::TempDir dir;
  write_file(dir.path() / "a.collapsed", kRunA);
  run(kBin + " flame " + (dir.path() / "a.collapsed").string() + " -o " + (dir.path() / "a.html").string(), dir.path());
  DevtoolsPipe browser(chromium(), dir.path());
  Page page(browser, dir.path() / "a.html");
  const nlohmann::json texts =
      page.eval(cases.dump() + ".map(([name, width, kept]) => window.bnFlame.elideName(name, width, kept))");
  REQUIRE(texts.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO(cases[i].dump());
    CHECK(texts[i].get<std::string>() == expected[i]);
  }
}

}  // namespace
}  // namespace bn::testing

int main(int argc, char** argv) {
  // A browser that died leaves a closed pipe: writing to it is an error to report, not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  if (!std::filesystem::exists(bn::testing::chromium())) {
    std::cout << "SKIPPED: " << bn::testing::chromium().string()
              << " is not installed (Debian package chromium-headless-shell; or set BN_CHROMIUM)\n";
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
