#pragma once
// `bottlenecks repl FILE --json` as the end-to-end tests drive it: one JSON object per command.

#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "agent_harness.h"

namespace bn::test {

// The JSON objects `bottlenecks repl FILE --json ARGS... -c COMMANDS` prints, in order.
inline std::vector<nlohmann::json> repl_json(const std::filesystem::path& file, const std::vector<std::string>& args,
                                             const std::string& commands) {
  std::vector<std::string> argv{kCli, "repl", file.string(), "--json"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"-c", commands});
  const auto r = run_command(argv, std::chrono::seconds(120));
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  std::vector<nlohmann::json> out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

// The output of the one `command` among them.
inline nlohmann::json only(const std::vector<nlohmann::json>& outputs, const std::string& command) {
  for (const nlohmann::json& j : outputs)
    if (j.value("command", "") == command) return j;
  FAIL("no output of " << command);
  return {};
}

}  // namespace bn::test
