// `convert`'s choices and help come from the format table (profile_formats.h): every format the
// tool writes is a --to choice its help names, and no other is.

#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/profile_formats.h"
#include "commands.h"

namespace {

// The convert subcommand as the tool sets it up. Its input never exists, so an accepted command
// line ends in the conversion's bn::Error and a refused one in CLI11's ValidationError.
struct Convert {
  CLI::App app;
  CLI::App* sub;
  Convert() {
    bn::cli::setup_convert(app);
    sub = app.get_subcommand("convert");
  }
};

constexpr const char* kMissingInput = "convert no-such-profile.bnp -o out";

}  // namespace

TEST_CASE("convert --to takes auto and every format that writes, and its help names each") {
  for (const bn::calltree::ProfileFormat& f : bn::calltree::profile_formats()) {
    CAPTURE(f.name);
    Convert convert;
    const std::string to_help = convert.sub->get_option("--to")->get_description();
    const std::string output_help = convert.sub->get_option("--output")->get_description();
    const std::string parse = std::string(kMissingInput) + " --to " + std::string(f.name);
    if (f.write != nullptr) {
      CHECK_THROWS_AS(convert.app.parse(parse), bn::Error);
      CHECK(to_help.find(std::string(f.name)) != std::string::npos);
      CHECK(convert.sub->get_description().find(std::string(f.title)) != std::string::npos);
      for (const bn::calltree::FileExtension& e : f.extensions) {
        CAPTURE(e.suffix);
        if (&f != &bn::calltree::profile_formats().back())  // the fallback's are "anything else"
          CHECK(to_help.find(std::string(e.suffix)) != std::string::npos);
        if (e.bare != bn::calltree::Compression::none)
          CHECK(output_help.find(std::string(e.suffix)) != std::string::npos);
      }
    } else {
      CHECK_THROWS_AS(convert.app.parse(parse), CLI::ValidationError);
      CHECK(to_help.find(std::string(f.name)) == std::string::npos);
    }
  }
  Convert convert;
  CHECK_THROWS_AS(convert.app.parse(std::string(kMissingInput) + " --to auto"), bn::Error);
}
