// The tool's two tables, the REPL's commands and the views, read row by row against the docs and
// the golden transcripts: a row nobody documented or ran fails here, not in a user's hands.

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/repl/commands.h"
#include "bn/repl/dispatch.h"
#include "bn/search/text.h"
#include "view_table.h"

namespace {

const std::filesystem::path kSource = BN_SOURCE_DIR;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The command files the golden cases run: every tests/golden/*.cmds, and the samples' walkthroughs
// that tests/golden/CMakeLists.txt names.
std::vector<std::filesystem::path> golden_command_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kSource / "tests/golden"))
    if (entry.path().extension() == ".cmds") files.push_back(entry.path());
  const std::string cmake = read(kSource / "tests/golden/CMakeLists.txt");
  const std::regex elsewhere(R"(\$\{PROJECT_SOURCE_DIR\}/([^ )]+\.cmds))");
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), elsewhere); it != std::sregex_iterator(); ++it)
    files.push_back(kSource / (*it)[1].str());
  REQUIRE(files.size() > 10);
  return files;
}

// Every line of the golden command files that names a command (abbreviated or not; lines that
// fail on purpose with an unknown command are left out), with its row.
struct GoldenLine {
  const bn::repl::Command* command;
  std::string args;
};

std::vector<GoldenLine> golden_lines() {
  std::vector<GoldenLine> lines;
  for (const std::filesystem::path& file : golden_command_files()) {
    std::istringstream in(read(file));
    for (std::string line; std::getline(in, line);) {
      const std::string_view trimmed = bn::search::trim(line);
      if (trimmed.empty() || trimmed.front() == '#') continue;
      try {
        const bn::repl::Invocation invocation = bn::repl::parse_command(trimmed);
        lines.push_back({invocation.command, std::string(invocation.args)});
      } catch (const bn::Error&) {
      }
    }
  }
  return lines;
}

// A row of a Markdown table whose first cell starts with `code` as code: "| `set model paper...".
bool documents(const std::string& doc, const std::string& code) {
  return doc.find("| `" + code + "`") != std::string::npos || doc.find("| `" + code + " ") != std::string::npos;
}

}  // namespace

TEST_CASE("every command of the REPL's table is in docs/repl.md and run by a golden transcript") {
  const std::string doc = read(kSource / "docs/repl.md");
  const std::vector<GoldenLine> lines = golden_lines();
  for (const bn::repl::Command& command : bn::repl::command_table()) {
    const std::string name(command.name);
    CAPTURE(name);
    CHECK_MESSAGE(documents(doc, name), "no row of docs/repl.md's command table starts with `" << name << "`");
    const bool run =
        std::any_of(lines.begin(), lines.end(), [&](const GoldenLine& l) { return l.command == &command; });
    CHECK_MESSAGE(run, "no tests/golden command file runs `" << name << "`");
  }
}

TEST_CASE("every view of the view table is in docs/views.md and opened by a golden transcript") {
  const std::string doc = read(kSource / "docs/views.md");
  const std::vector<GoldenLine> lines = golden_lines();
  const std::vector<bn::search::ViewKind> kinds = bn::cli::view_kinds();
  REQUIRE_FALSE(kinds.empty());
  for (const bn::search::ViewKind& kind : kinds) {
    const std::string spelled = kind.name + (kind.param.empty() ? "" : " " + kind.param);
    CAPTURE(spelled);
    CHECK_MESSAGE(documents(doc, "view " + spelled), "no row of docs/views.md starts with `view " << spelled << "`");
    const bool opened = std::any_of(lines.begin(), lines.end(), [&](const GoldenLine& l) {
      return l.command->name == "view" && bn::search::equals_nocase(bn::search::split_word(l.args).first, kind.name);
    });
    CHECK_MESSAGE(opened, "no tests/golden command file runs `view " << kind.name << "`");
  }
}

TEST_CASE("every view of the view table reads as an alternative of the REPL's view command") {
  for (const bn::search::ViewKind& kind : bn::cli::view_kinds()) {
    CAPTURE(kind.name);
    // A keyword: lowercase, one word; the word it takes, a placeholder in capitals.
    CHECK_FALSE(kind.name.empty());
    CHECK(std::all_of(kind.name.begin(), kind.name.end(),
                      [](unsigned char c) { return std::islower(c) || std::isdigit(c) || c == '-'; }));
    CHECK(std::all_of(kind.param.begin(), kind.param.end(), [](unsigned char c) { return std::isupper(c); }));
    // A phrase completing "search ...", joined with the others into one line: by commas in
    // `help view`, by semicolons in `--view`'s help.
    CHECK_FALSE(kind.help.empty());
    CHECK(kind.help.find(';') == std::string::npos);
  }
}
