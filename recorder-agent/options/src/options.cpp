#include "bn/agent/options.h"

#include <string>
#include <string_view>
#include <vector>

#include "bn/agent/option_table.h"

namespace bn::agent {
namespace {

// One option, as its row says.
Status apply(Options& o, std::string_view key, std::string_view value, bool has_value) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict) on the inlined concatenation of
  // temporaries (GCC bug 105651, a false positive).
  std::string quoted = "'";
  quoted.append(key);
  if (has_value) quoted.append("=").append(value);
  quoted.append("'");
  const OptionSpec* spec = find_option(key);
  if (spec == nullptr) return Status::error("unknown option " + quoted + " (see docs/recorder.md)");
  const std::string expected = spec->apply(o, value, has_value);
  return expected.empty() ? Status() : Status::error("bad option " + quoted + ": expected " + expected);
}

}  // namespace

ParsedOptions parse_options(const char* text) {
  ParsedOptions result;
  result.options.mode = std::string(modes().front().name);
  // Options of one mode, as given: given to another mode they would be ignored silently, and the
  // user would think they had narrowed a recording they had not.
  std::vector<const OptionSpec*> of_one_mode;
  std::string_view rest(text == nullptr ? "" : text);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const bool has_value = eq != std::string_view::npos;
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = has_value ? item.substr(eq + 1) : std::string_view();
    Status status = apply(result.options, key, value, has_value);
    if (result.status.ok()) result.status = std::move(status);  // report the first bad option
    if (const OptionSpec* spec = find_option(key); spec != nullptr && !spec->only_mode.empty())
      of_one_mode.push_back(spec);
  }
  for (const OptionSpec* spec : of_one_mode)
    if (result.status.ok() && spec->only_mode != result.options.mode)
      result.status = Status::error(std::string(spec->key) + "= applies to mode=" + std::string(spec->only_mode) +
                                    " only, not to mode=" + result.options.mode);
  return result;
}

}  // namespace bn::agent
