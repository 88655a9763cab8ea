#pragma once
// `bottlenecks record`'s flags for the agent's options: one flag per row of the agent's option
// table (bn/agent/option_table.h) that has one, with the row's help and fixed set of values, and
// the agent option string built from them, checked with the agent's own parser before a JVM is
// started or attached to (so `--interval abc` is one line, not a JVM run without a profile).

#include <CLI/CLI.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace bn::cli {

// The values given, by agent key ("interval" -> {"10ms"}); absent or empty: the agent's default.
// Only a repeatable option (OptionSpec::repeatable) holds more than one.
using AgentFlagValues = std::map<std::string_view, std::vector<std::string>>;

// Registers a flag on `record` for every option of the table that has one.
void add_agent_flags(CLI::App& record, AgentFlagValues& values);

// "strict,file=OUTPUT,interval=10ms,...": `strict` makes a bad option stop the JVM instead of
// letting it run unprofiled, so `record` never silently records nothing. File options are made
// absolute (the JVM's working directory may differ). Throws bn::Error with the agent parser's
// message, naming the flag, when a value is refused, or when a value holds ',', '"' or a control
// character, which the agent's comma-separated options (and jcmd's quoting) cannot carry.
std::string agent_option_string(const AgentFlagValues& values, const std::filesystem::path& output);

// The mode the values ask for (the agent's default when none).
std::string_view chosen_mode(const AgentFlagValues& values);

}  // namespace bn::cli
