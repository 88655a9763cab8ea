// The recorder's mode and option tables (bn/agent/option_table.h): every row documented in
// docs/recorder.md, every value of a fixed set taken by the parser for its mode, a value outside
// it refused. A row added without its docs or its parsing fails here.

#include "bn/agent/option_table.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bn/agent/options.h"

namespace {

std::string recorder_doc() {
  std::ifstream in(std::filesystem::path(BN_SOURCE_DIR) / "docs" / "recorder.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "mode=calltree,trivial=count", for an option of one mode.
std::string with_mode(const bn::agent::OptionSpec& spec, std::string_view value) {
  std::string text = spec.only_mode.empty() ? "" : "mode=" + std::string(spec.only_mode) + ",";
  return text + std::string(spec.key) + "=" + std::string(value);
}

}  // namespace

TEST_CASE("every option and every mode of the tables has its row in docs/recorder.md") {
  const std::string doc = recorder_doc();
  REQUIRE_FALSE(doc.empty());
  for (const bn::agent::OptionSpec& spec : bn::agent::option_specs()) {
    INFO(spec.key);
    // "| `interval=` |", or "| `strict` / `strict=true` |" for a flag.
    CHECK((doc.find("| `" + std::string(spec.key) + "=`") != std::string::npos ||
           doc.find("| `" + std::string(spec.key) + "` / `" + std::string(spec.key) + "=true`") != std::string::npos));
    CHECK_FALSE(bn::agent::help_of(spec).empty());
  }
  for (const bn::agent::Mode& mode : bn::agent::modes()) {
    INFO(mode.name);
    CHECK(doc.find("`mode=" + std::string(mode.name) + "`") != std::string::npos);
  }
}

TEST_CASE("every value an option lists is taken for its mode, and a value outside the list is refused") {
  for (const bn::agent::OptionSpec& spec : bn::agent::option_specs()) {
    if (spec.choices == nullptr) continue;
    INFO(spec.key);
    CHECK_FALSE(spec.choices().empty());
    for (const std::string_view value : spec.choices())
      CHECK(bn::agent::parse_options(with_mode(spec, value).c_str()).status.ok());
    const auto bad = bn::agent::parse_options(with_mode(spec, "no-such-value").c_str());
    CHECK(bad.status.message().find("bad option '" + std::string(spec.key) + "=no-such-value'") != std::string::npos);
  }
}

TEST_CASE("an option of one mode is refused with another, and keys are unique") {
  for (const bn::agent::OptionSpec& spec : bn::agent::option_specs()) {
    INFO(spec.key);
    CHECK(bn::agent::find_option(spec.key) == &spec);
    if (spec.only_mode.empty()) continue;
    REQUIRE(bn::agent::find_mode(spec.only_mode) != nullptr);
    for (const bn::agent::Mode& other : bn::agent::modes())
      if (other.name != spec.only_mode) {
        const std::string text = "mode=" + std::string(other.name) + "," + std::string(spec.key) + "=x";
        const auto parsed = bn::agent::parse_options(text.c_str());
        CHECK_FALSE(parsed.status.ok());
      }
  }
}
