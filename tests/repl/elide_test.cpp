#include "bn/repl/elide.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using bn::repl::columns;
using bn::repl::fit_path;
using bn::repl::wrap;
using Frames = std::vector<std::string>;

TEST_CASE("a path that fits is printed whole") {
  CHECK(fit_path({"a", "b", "c"}, 20) == "[a;b;c]");
  CHECK(fit_path({}, 20) == "[]");
}

TEST_CASE("a long path keeps its outermost and innermost frames and counts those left out") {
  Frames frames;
  for (int i = 0; i < 30; ++i) frames.push_back("pkg.Class" + std::to_string(i) + ".method");
  const std::string fitted = fit_path(frames, 80);
  CHECK(columns(fitted) <= 80);
  CHECK(fitted.starts_with("[pkg.Class0.method;"));
  CHECK(fitted.ends_with(";pkg.Class29.method]"));
  CHECK(fitted.find(" frames>;") != std::string::npos);
  // One frame too long on its own, and two that do not fit side by side.
  const std::string huge(300, 'x');
  CHECK(columns(fit_path({huge}, 80)) == 80);
  CHECK(columns(fit_path({huge}, 20)) == 24);  // a path column keeps 24 columns
  CHECK(columns(fit_path({huge, huge, huge}, 80)) <= 80);
  CHECK(fit_path({"a" + huge, huge + "z"}, 40).starts_with("[ax"));
  CHECK(fit_path({"a" + huge, huge + "z"}, 40).ends_with("xz]"));
}

TEST_CASE("ends too long to fit keep their Class.method, shortening packages first") {
  const Frames frames{"java.lang.Thread.run", "org.example.server.RequestLoop.serve",
                      "org.apache.xpath.objects.XNodeSet.compare"};
  CHECK(fit_path(frames, 56) == "[…Thread.run;<1 frame>;o.a.x.objects.XNodeSet.compare]");
  CHECK(fit_path(frames, 46) == "[j.l.Thread.run;<1 frame>;…XNodeSet.compare]");
  CHECK(fit_path(frames, 40) == "[…Thread.run;<1 frame>;XNodeSe…compare]");
}

TEST_CASE("elided paths fit their width and account for every frame (property)") {
  std::mt19937 random(5);
  for (int round = 0; round < 500; ++round) {
    Frames frames;
    for (std::size_t n = 1 + random() % 40; n > 0; --n)
      frames.push_back(std::string(1 + random() % 20, static_cast<char>('a' + random() % 26)) + "\xc3\xa9");
    const std::size_t width = 60 + random() % 100;
    const std::string fitted = fit_path(frames, width);
    REQUIRE(columns(fitted) <= width);
    // The frames kept whole plus the count left out make up the path, ends first.
    std::string whole = "[";
    for (const std::string& f : frames) whole += f + ";";
    whole.back() = ']';
    if (fitted.find(" frame") == std::string::npos && fitted.find("…") == std::string::npos) {
      CHECK(fitted == whole);
      continue;
    }
    const std::size_t open = fitted.find('<');
    if (open == std::string::npos || fitted.find("…") != std::string::npos) continue;  // names cut
    const std::size_t left_out = std::stoul(fitted.substr(open + 1));
    const std::string head = fitted.substr(1, open - 1), tail = fitted.substr(fitted.find('>') + 2);
    std::size_t kept = 0;
    for (const char c : head + tail)
      if (c == ';' || c == ']') ++kept;
    CHECK(kept + left_out == frames.size());
    CHECK(whole.starts_with("[" + head));
    CHECK(whole.ends_with(tail));
  }
}

TEST_CASE("prose wraps at blanks under a hanging indent, and a word too long keeps its own line") {
  CHECK(wrap("note: one two three", 0) == "note: one two three");
  CHECK(wrap("note: one two three", 12) == "note: one\n  two three");
  CHECK(wrap("  a bb ccc dddd", 8) == "  a bb\n    ccc\n    dddd");
  CHECK(wrap("see " + std::string(20, 'x') + " here", 10) == "see\n  " + std::string(20, 'x') + "\n  here");
  CHECK(wrap("a line that fits", 16) == "a line that fits");
}
