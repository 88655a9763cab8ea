#pragma once
// The recorder's modes and options, one table each, read by the agent (which parses and applies
// them) and by `bottlenecks record` (which offers a flag per row, passes the values through and
// validates them with the agent's own parser before it starts a JVM). Adding an option is one row
// in option_table.cpp plus its field in Options and its line in docs/recorder.md; adding a mode
// is one row here plus its engine's row in the agent's engine table (core/engine_factory.cpp).
// No JVMTI, no exceptions: this is compiled into the agent as well as the command-line tool.

#include <span>
#include <string>
#include <string_view>

namespace bn::agent {

struct Options;

struct Mode {
  std::string_view name;         // the value of mode= and of record's --mode
  std::string_view description;  // what it records, for help and the message naming the modes
  // duration= counts from the recording's first event rather than its start (the call-tree mode
  // counts from the first instrumented call, which an idle server may not make for hours).
  bool duration_from_first_event = false;
};

// Every mode; the first is the default.
std::span<const Mode> modes();
const Mode* find_mode(std::string_view name);

struct OptionSpec {
  std::string_view key;   // the agent option: "interval"
  std::string_view flag;  // `bottlenecks record`'s flag, "--interval"; empty: the agent's alone
  std::string_view help;  // one line for record's help
  // The one mode the option applies to; empty: every mode. Given with another mode it is refused
  // rather than ignored, so a user never believes a setting took effect that did not.
  std::string_view only_mode;
  // The values it takes, when they are a fixed set (record's flag checks them); null otherwise.
  std::span<const std::string_view> (*choices)() = nullptr;
  bool file_path = false;  // a file the agent opens: record makes it absolute and checks it exists
  // Applies the value (has_value: `key=value` rather than a bare `key`). Returns what the value
  // must be when it is not one ("a duration, e.g. delay=30s"), else the empty string.
  std::string (*apply)(Options& options, std::string_view value, bool has_value) = nullptr;
  std::string (*computed_help)() = nullptr;  // instead of `help`, when it is made of another table
  bool repeatable = false;                   // may be given several times, each value adding to the others
};

// The row's help: `help`, or what `computed_help` makes.
std::string help_of(const OptionSpec& spec);

// Every option, in the order record's help lists them.
std::span<const OptionSpec> option_specs();
const OptionSpec* find_option(std::string_view key);

}  // namespace bn::agent
