#include "bn/repl/commands.h"
#include "handlers.h"

namespace bn::repl {

const MethodIndex& Context::methods() {
  if (!methods_) methods_.emplace(session_->profile());
  return *methods_;
}

std::span<const Command> command_table() {
  namespace h = handlers;
  using enum ArgCompletion;
  // Order is the order of `help`: the paper's commands first (seed 004 sec. 2.3).
  static const Command kTable[] = {
      {"suggest", "[N]", "list the suggester's top N starting summaries, numbered (default 10)", kNone, h::suggest},
      {"select", "N", "make summary N current: its labels, cum, base, overlaps, call path and nearby summaries", kNone,
       h::select},
      {"path", "m1;m2;...", "make the summary of a call sequence current (prefixes and * globs naming one method)",
       kMethods, h::path},
      {"show", "", "print the current summary again", kNone, h::show},
      {"back", "", "return to the previous current summary", kNone, h::back},
      {"history", "", "list the summaries made current so far, numbered", kNone, h::history},
      {"label", "NAME", "give the current summary the label NAME", kLabels, h::label},
      {"unlabel", "NAME", "take the label NAME off the current summary", kLabels, h::unlabel},
      {"labels", "", "list labels with overlap-corrected totals and the coverage of all of them", kNone, h::labels},
      {"save", "FILE", "write all labels to FILE as call sequences", kFiles, h::save},
      {"load", "FILE", "add the labels saved in FILE (e.g. from another profile of the program)", kFiles, h::load},
      {"set", "", "show the settings", kNone, h::settings},
      {"set suggester", "HighCum|HighBase", "rank suggestions by |cum| (top-down) or |base| (bottom-up)", kChoices,
       h::set_suggester},
      {"set zoom", "on|off", "zoom through nearby summaries that concentrate the cost (seed 004 sec. 2.3)", kChoices,
       h::set_zoom},
      {"set cutoff", "C", "zoom cutoff ratio, a number > 0 (default 0.95)", kNone, h::set_cutoff},
      {"set limit", "N|all",
       "list at most N nearby summaries per group, heaviest |cum| first, then \"... and K more\" (default 20)", kNone,
       h::set_limit},
      {"set names", "short|full", "print methods as Class.method or with their package", kChoices, h::set_names},
      {"help", "[COMMAND]", "list commands, or describe one", kCommands, h::help},
      {"quit", "", "end the session", kNone, h::quit},
  };
  return kTable;
}

}  // namespace bn::repl
