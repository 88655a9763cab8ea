#pragma once
// Handlers of the command table (command_table.cpp), grouped by file: navigation
// (commands_navigate.cpp), labels (commands_labels.cpp), settings and help (commands_settings.cpp).
// Internal to bn_repl.

#include <string>
#include <string_view>
#include <vector>

#include "bn/repl/commands.h"

namespace bn::repl::handlers {

// Blank-separated words of an argument string; throws unless there are between min and max.
std::vector<std::string_view> arguments(std::string_view args, std::size_t min, std::size_t max,
                                        std::string_view usage);

Output suggest(Context& c, std::string_view args);
Output select(Context& c, std::string_view args);
Output path(Context& c, std::string_view args);
Output show(Context& c, std::string_view args);
Output back(Context& c, std::string_view args);
Output history(Context& c, std::string_view args);

Output label(Context& c, std::string_view args);
Output unlabel(Context& c, std::string_view args);
Output labels(Context& c, std::string_view args);
Output save(Context& c, std::string_view args);
Output load(Context& c, std::string_view args);

Output settings(Context& c, std::string_view args);
Output set_suggester(Context& c, std::string_view args);
Output set_zoom(Context& c, std::string_view args);
Output set_cutoff(Context& c, std::string_view args);
Output set_limit(Context& c, std::string_view args);
Output set_names(Context& c, std::string_view args);
Output help(Context& c, std::string_view args);
Output quit(Context& c, std::string_view args);

}  // namespace bn::repl::handlers
