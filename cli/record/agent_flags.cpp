#include "record/agent_flags.h"

#include <cctype>
#include <vector>

#include "bn/agent/option_table.h"
#include "bn/agent/options.h"
#include "bn/base/error.h"

namespace bn::cli {
namespace {

namespace fs = std::filesystem;

// The flag of an agent option, for messages ("-o" for file=).
std::string flag_of(std::string_view key) {
  const agent::OptionSpec* spec = agent::find_option(key);
  return spec != nullptr && !spec->flag.empty() ? std::string(spec->flag) : key == "file" ? "-o" : std::string(key);
}

void append(std::string& options, std::string_view key, const std::string& value) {
  for (const char c : value)
    if (c == ',' || c == '"' || static_cast<unsigned char>(c) < 0x20)
      throw Error(flag_of(key) + ": '" + value + "' holds " +
                  (c == ','   ? "','"
                   : c == '"' ? "'\"'"
                              : "a control character") +
                  ", which the agent's comma-separated options cannot carry");
  options.append(",").append(key).append("=").append(value);
}

}  // namespace

void add_agent_flags(CLI::App& record, AgentFlagValues& values) {
  for (const agent::OptionSpec& spec : agent::option_specs()) {
    if (spec.flag.empty()) continue;
    // "Mean sampling interval ...", "calltree: instrument only ...", as the other flags read.
    std::string help =
        spec.only_mode.empty() ? agent::help_of(spec) : std::string(spec.only_mode) + ": " + agent::help_of(spec);
    help.front() = spec.only_mode.empty() ? static_cast<char>(std::toupper(help.front())) : help.front();
    CLI::Option* flag = record.add_option(std::string(spec.flag), values[spec.key], help);
    if (spec.choices != nullptr) {
      std::vector<std::string> choices;
      for (const std::string_view c : spec.choices()) choices.emplace_back(c);
      flag->check(CLI::IsMember(choices));
    }
    if (spec.file_path) flag->check(CLI::ExistingFile);
    // One value per occurrence ("--target a --target b"; a sequence's ';' is no separator), and
    // only a repeatable option may occur twice.
    flag->expected(1)->allow_extra_args(false)->multi_option_policy(spec.repeatable ? CLI::MultiOptionPolicy::TakeAll
                                                                                    : CLI::MultiOptionPolicy::Throw);
  }
}

std::string agent_option_string(const AgentFlagValues& values, const fs::path& output) {
  std::string options = "strict";
  append(options, "file", output.string());
  for (const auto& [key, given] : values) {
    const agent::OptionSpec* spec = agent::find_option(key);
    for (const std::string& value : given)
      if (!value.empty())
        append(options, key, spec != nullptr && spec->file_path ? fs::absolute(value).string() : value);
  }
  const agent::ParsedOptions parsed = agent::parse_options(options.c_str());
  if (!parsed.status.ok()) {
    // "bad option 'interval=abc': expected ..." as the agent says it, with the flag the user typed.
    std::string message = parsed.status.message();
    for (const auto& [key, given] : values)
      if (!given.empty() && (message.find("'" + std::string(key) + "=") != std::string::npos ||
                             message.starts_with(std::string(key) + "= "))) {
        message = flag_of(key) + ": " + message;
        break;
      }
    throw Error(message);
  }
  return options;
}

std::string_view chosen_mode(const AgentFlagValues& values) {
  const auto mode = values.find("mode");
  return mode != values.end() && !mode->second.empty() ? std::string_view(mode->second.back())
                                                       : agent::modes().front().name;
}

}  // namespace bn::cli
