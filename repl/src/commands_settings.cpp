// `set ...`, `help` and `quit`.

#include "bn/base/error.h"
#include "bn/repl/dispatch.h"
#include "bn/search/parse.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

MessageOutput setting(std::string name, std::string value) {
  return MessageOutput{name + " = " + value, {{"setting", name}, {"value", value}}};
}

}  // namespace

Output settings(Context& c, const Arguments&) {
  const search::Settings& s = c.session().settings();
  const std::string suggester(search::suggester_name(s.suggester));
  const std::string names(search::name_style_name(s.names));
  const std::string zoom = s.zoom ? "on" : "off";
  const std::string cutoff = search::rational_text(s.cutoff);
  const std::string limit = search::limit_text(s.limit);
  const std::string width = search::width_text(s.width);
  MessageOutput out{"suggester = " + suggester + "\nzoom = " + zoom + "\ncutoff = " + cutoff + "\nlimit = " + limit +
                        "\nnames = " + names + "\nwidth = " + width,
                    {{"suggester", suggester},
                     {"zoom", zoom},
                     {"cutoff", cutoff},
                     {"limit", limit},
                     {"names", names},
                     {"width", width}}};
  // The noise setting matters only where differences have a noise estimate.
  if (c.session().profile().total_noise()) {
    const std::string noise = s.skip_noise ? "skip" : "show";
    out.text += "\nnoise = " + noise;
    out.fields.emplace_back("noise", noise);
  }
  if (search::ProfileSource* source = c.session().source(); source && source->metrics().size() > 1) {
    std::string all;
    for (const std::string& m : source->metrics()) all += (all.empty() ? "" : ", ") + m;
    const std::string value = source->knob(search::ProfileSource::Knob::metric);
    out.text += "\nmetric = " + value + " (the profile has " + all + ")";
    out.fields.emplace_back("metric", value);
  }
  // The knobs of the views of a recording (seed 000 sec. 4), when the session has them.
  if (search::ProfileSource* source = c.session().source(); source && source->has_views()) {
    using Knob = search::ProfileSource::Knob;
    for (const auto& [knob, name] : {std::pair{Knob::view, "view"}, std::pair{Knob::model, "model"},
                                     std::pair{Knob::states, "states"}, std::pair{Knob::threads, "threads"}}) {
      const std::string value = source->knob(knob);
      out.text += "\n" + std::string(name) + " = " + value;
      out.fields.emplace_back(name, value);
    }
  }
  return out;
}

Output set_suggester(Context& c, const Arguments& args) {
  search::Settings& s = c.session().settings();
  s.suggester = args[0].keyword == "HighCum" ? search::Suggester::kHighCum : search::Suggester::kHighBase;
  return setting("suggester", std::string(search::suggester_name(s.suggester)));
}

Output set_zoom(Context& c, const Arguments& args) {
  c.session().settings().zoom = args[0].keyword == "on";
  return setting("zoom", c.session().settings().zoom ? "on" : "off");
}

Output set_cutoff(Context& c, const Arguments& args) {
  c.session().settings().cutoff = search::parse_positive_decimal(args[0].text, "cutoff");
  return setting("cutoff", search::rational_text(c.session().settings().cutoff));
}

Output set_limit(Context& c, const Arguments& args) {
  const bool all = args[0].keyword == "all";
  const std::string_view typed = args[0].text;
  if (!all && typed.find_first_not_of("0123456789") != std::string_view::npos)
    throw Error("bad limit '" + std::string(typed) + "': expected a whole number >= 1 or all");
  search::Settings& s = c.session().settings();
  s.limit = all ? SIZE_MAX : static_cast<std::size_t>(search::parse_whole(typed, 1, INT32_MAX, "limit"));
  return setting("limit", search::limit_text(s.limit));
}

Output set_width(Context& c, const Arguments& args) {
  // Narrower than this, a row's numbers alone fill the line.
  constexpr std::int64_t kNarrowest = 40;
  const bool off = args[0].keyword == "off";
  const std::string_view typed = args[0].text;
  if (!off && typed.find_first_not_of("0123456789") != std::string_view::npos)
    throw Error("bad width '" + std::string(typed) + "': expected a whole number of columns >= 40, or off");
  search::Settings& s = c.session().settings();
  s.width = off ? 0 : static_cast<std::size_t>(search::parse_whole(typed, kNarrowest, 100000, "width"));
  return setting("width", search::width_text(s.width));
}

Output set_noise(Context& c, const Arguments& args) {
  c.session().settings().skip_noise = args[0].keyword == "skip";
  return setting("noise", c.session().settings().skip_noise ? "skip" : "show");
}

Output set_names(Context& c, const Arguments& args) {
  search::Settings& s = c.session().settings();
  s.names = args[0].keyword == "short" ? search::NameStyle::kShort : search::NameStyle::kFull;
  return setting("names", std::string(search::name_style_name(s.names)));
}

Output help(Context& c, const Arguments& args) {
  HelpOutput out;
  // `help set` describes every setting; `help set zoom` or `help sel` just the one command.
  const Command* only = args[0].text.empty() ? nullptr : parse_command(args[0].text).command;
  const bool group = only && only->name.find(' ') == std::string_view::npos;
  for (const Command& command : command_table()) {
    const std::string_view first = command.name.substr(0, command.name.find(' '));
    if (only && &command != only && !(group && first == only->name)) continue;
    const Command& row = c.row(command);
    out.entries.push_back({std::string(row.name), usage_text(row.args), std::string(row.help)});
  }
  return out;
}

Output quit(Context& c, const Arguments&) { return QuitOutput{c.session().any_labels_dirty()}; }

}  // namespace bn::repl::handlers
