// `set ...`, `help` and `quit`.

#include "bn/iface/error.h"
#include "bn/repl/dispatch.h"
#include "bn/repl/parse.h"
#include "bn/repl/text.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

// Index of `typed` among the '|'-separated `choices` (case-insensitive); throws naming them.
std::size_t choose(std::string_view typed, std::string_view choices, std::string_view what) {
  std::size_t index = 0;
  for (std::string_view rest = choices;; ++index) {
    const std::size_t bar = rest.find('|');
    if (equals_nocase(typed, rest.substr(0, bar))) return index;
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 1);
  }
  std::string expected(choices);
  for (char& ch : expected)
    if (ch == '|') ch = '/';
  throw Error("bad " + std::string(what) + " '" + std::string(typed) + "': expected " + expected);
}

MessageOutput setting(std::string name, std::string value) {
  return MessageOutput{name + " = " + value, {{"setting", name}, {"value", value}}};
}

}  // namespace

Output settings(Context& c, std::string_view args) {
  arguments(args, 0, 0, "set");
  const Settings& s = c.session().settings();
  const std::string suggester(suggester_name(s.suggester));
  const std::string names(name_style_name(s.names));
  const std::string zoom = s.zoom ? "on" : "off";
  const std::string cutoff = rational_text(s.cutoff);
  const std::string limit = limit_text(s.limit);
  return MessageOutput{
      "suggester = " + suggester + "\nzoom = " + zoom + "\ncutoff = " + cutoff + "\nlimit = " + limit +
          "\nnames = " + names,
      {{"suggester", suggester}, {"zoom", zoom}, {"cutoff", cutoff}, {"limit", limit}, {"names", names}}};
}

Output set_suggester(Context& c, std::string_view args) {
  const auto words = arguments(args, 1, 1, "set suggester HighCum|HighBase");
  Settings& s = c.session().settings();
  s.suggester = choose(words[0], "HighCum|HighBase", "suggester") == 0 ? Suggester::kHighCum : Suggester::kHighBase;
  return setting("suggester", std::string(suggester_name(s.suggester)));
}

Output set_zoom(Context& c, std::string_view args) {
  const auto words = arguments(args, 1, 1, "set zoom on|off");
  c.session().settings().zoom = choose(words[0], "on|off", "zoom setting") == 0;
  return setting("zoom", c.session().settings().zoom ? "on" : "off");
}

Output set_cutoff(Context& c, std::string_view args) {
  const auto words = arguments(args, 1, 1, "set cutoff C");
  c.session().settings().cutoff = parse_positive_decimal(words[0], "cutoff");
  return setting("cutoff", rational_text(c.session().settings().cutoff));
}

Output set_limit(Context& c, std::string_view args) {
  const auto words = arguments(args, 1, 1, "set limit N|all");
  Settings& s = c.session().settings();
  if (!equals_nocase(words[0], "all") && words[0].find_first_not_of("0123456789") != std::string_view::npos)
    throw Error("bad limit '" + std::string(words[0]) + "': expected a whole number >= 1 or all");
  s.limit = equals_nocase(words[0], "all") ? SIZE_MAX
                                           : static_cast<std::size_t>(parse_whole(words[0], 1, INT32_MAX, "limit"));
  return setting("limit", limit_text(s.limit));
}

Output set_names(Context& c, std::string_view args) {
  const auto words = arguments(args, 1, 1, "set names short|full");
  Settings& s = c.session().settings();
  s.names = choose(words[0], "short|full", "names setting") == 0 ? NameStyle::kShort : NameStyle::kFull;
  return setting("names", std::string(name_style_name(s.names)));
}

Output help(Context&, std::string_view args) {
  HelpOutput out;
  // `help set` describes every setting; `help set zoom` or `help sel` just the one command.
  const Command* only = args.empty() ? nullptr : parse_command(args).command;
  const bool group = only && only->name.find(' ') == std::string_view::npos;
  for (const Command& command : command_table()) {
    const std::string_view first = command.name.substr(0, command.name.find(' '));
    if (only && &command != only && !(group && first == only->name)) continue;
    out.entries.push_back({std::string(command.name), std::string(command.args), std::string(command.help)});
  }
  return out;
}

Output quit(Context& c, std::string_view args) {
  arguments(args, 0, 0, "quit");
  return QuitOutput{c.session().labels_dirty()};
}

}  // namespace bn::repl::handlers
