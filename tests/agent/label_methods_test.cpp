// methods=: reading a REPL label file in the agent (the golden test in agent_calltree_test.cpp
// reads one the REPL saved).

#include "calltree/label_methods.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string write_file(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("bn-labels-" + std::to_string(getpid()) + ".txt");
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}  // namespace

TEST_CASE("every Java method of every label, each once, signatures and pseudo-methods dropped") {
  const std::string path = write_file(
      "# bottlenecks labels v1\n# a comment\nview tree\nlabel hot\n  a.B.c\n  a.B.d(I)V\nlabel other\n"
      "  a.B.c\n  :RUN\n  [truncated]\n  ..\n\n  e.F$G.<init>\n");
  const auto r = bn::agent::read_label_methods(path);
  REQUIRE(r.status.ok());
  CHECK(r.methods == std::vector<std::string>{"a.B.c", "a.B.d", "e.F$G.<init>"});
  std::filesystem::remove(path);
}

TEST_CASE("a malformed label file is refused with FILE:LINE and what is wrong") {
  const std::string path = write_file("# bottlenecks labels v1\n  a.B.c\n");
  const auto r = bn::agent::read_label_methods(path);
  CHECK_FALSE(r.status.ok());
  CHECK(r.status.message() == path + ":2: method line before the first `label NAME` line");
  const std::string bad = write_file("label x\nnonsense\n");
  CHECK(bn::agent::read_label_methods(bad).status.message() ==
        bad + ":2: expected `view NAME`, `aspect NAME = PATTERN`, `label NAME` or an indented method name");
  std::filesystem::remove(bad);
}

TEST_CASE("a label file without Java methods, or no file, is an error naming it") {
  const std::string path = write_file("label x\n  :RUN\n");
  CHECK(bn::agent::read_label_methods(path).status.message() ==
        "methods='" + path + "' names no Java method: nothing to instrument");
  std::filesystem::remove(path);
  CHECK(bn::agent::read_label_methods("/nonexistent/labels").status.message() ==
        "cannot read labels from '/nonexistent/labels': cannot open it");
}

TEST_CASE("a label file that defines aspects reads as the REPL wrote it") {
  const std::string path =
      write_file("# bottlenecks labels v2\naspect io = java.io.*\nlabel parse\n  p.Parser.parse\n  ..\n  :io\n");
  const auto r = bn::agent::read_label_methods(path);
  REQUIRE(r.status.ok());
  CHECK(r.methods == std::vector<std::string>{"p.Parser.parse"});
  std::filesystem::remove(path);
}
