// `record`'s flags for the agent's options come from the agent's option table, and what record
// passes is checked with the agent's own parser before anything starts (cli/record/agent_flags.h).

#include "record/agent_flags.h"

#include <doctest/doctest.h>

#include <string>

#include "bn/agent/option_table.h"
#include "bn/base/error.h"
#include "commands.h"

namespace {

bool throws_with(const bn::cli::AgentFlagValues& values, const std::string& message) {
  try {
    bn::cli::agent_option_string(values, "/tmp/run.bnp");
  } catch (const bn::Error& e) {
    INFO(e.what());
    return std::string(e.what()) == message;
  }
  return false;
}

}  // namespace

TEST_CASE("record offers a flag for every agent option the table gives one, with its values") {
  CLI::App app;
  bn::cli::setup_record(app);
  CLI::App* record = app.get_subcommand("record");
  for (const bn::agent::OptionSpec& spec : bn::agent::option_specs()) {
    if (spec.flag.empty()) continue;
    INFO(spec.flag);
    const CLI::Option* flag = record->get_option_no_throw(std::string(spec.flag));
    REQUIRE(flag != nullptr);
    CHECK(flag->get_description().find(bn::agent::help_of(spec).substr(1)) != std::string::npos);
    if (spec.only_mode.empty()) continue;
    CHECK(flag->get_description().starts_with(std::string(spec.only_mode) + ": "));
  }
}

TEST_CASE("the agent's option string holds what was given, checked by the agent's parser") {
  CHECK(bn::cli::agent_option_string({}, "/tmp/run.bnp") == "strict,file=/tmp/run.bnp");
  CHECK(bn::cli::agent_option_string({{"interval", {"10ms"}}, {"mode", {"sample"}}, {"delay", {""}}}, "/tmp/run.bnp") ==
        "strict,file=/tmp/run.bnp,interval=10ms,mode=sample");
  CHECK(throws_with({{"interval", {"abc"}}},
                    "--interval: bad option 'interval=abc': expected a duration from 1ms to 1h, e.g. interval=20ms"));
  CHECK(throws_with({{"include", {"com.acme.*"}}},
                    "--include: include= applies to mode=calltree only, not to mode=sample"));
  CHECK(throws_with({{"include", {"a,b"}}},
                    "--include: 'a,b' holds ',', which the agent's comma-separated options cannot carry"));
  CHECK(bn::cli::chosen_mode({}) == bn::agent::modes().front().name);
  CHECK(bn::cli::chosen_mode({{"mode", {"calltree"}}}) == "calltree");
}
