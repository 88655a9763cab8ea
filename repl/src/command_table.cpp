#include <algorithm>

#include "bn/repl/commands.h"
#include "handlers.h"

namespace bn::repl {

const search::MethodIndex& Context::methods() {
  if (!methods_) methods_.emplace(session_->profile());
  return *methods_;
}

iface::Summary Context::resolve(std::string_view typed) {
  search::ProfileSource* source = session_->source();
  const std::vector<std::string> typed_time = source ? source->typed_time() : std::vector<std::string>{};
  return search::resolve_call_sequence(session_->profile(), methods(), typed, session_->aspects(), typed_time);
}

const Command& Context::row(const Command& command) {
  const search::ProfileSource* source = session_->source();
  const auto views =
      std::find_if(command.args.begin(), command.args.end(), [](const Arg& a) { return a.source_views; });
  if (!source || views == command.args.end()) return command;
  if (const auto known = spelled_.find(&command); known != spelled_.end()) return known->second->row;
  auto spelled = std::make_unique<SpelledRow>();
  const std::vector<search::ViewKind> kinds = source->view_kinds();
  std::string what;  // "the call tree as recorded, the CPU time of all threads, or ..."
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const search::ViewKind& k = kinds[i];
    spelled->usage += (i ? "|" : "") + k.name + (k.param.empty() ? "" : " " + k.param);
    what += (i == 0 ? "" : i + 1 < kinds.size() ? ", " : kinds.size() > 2 ? ", or " : " or ") + k.help;
  }
  spelled->help = std::string(command.help) + (what.empty() ? "" : ": " + what);
  spelled->row = command;
  spelled->row.help = spelled->help;
  if (!kinds.empty()) spelled->row.args[static_cast<std::size_t>(views - command.args.begin())].usage = spelled->usage;
  return spelled_.emplace(&command, std::move(spelled)).first->second->row;
}

std::span<const Command> command_table() {
  namespace h = handlers;
  using enum ArgCompletion;
  constexpr std::string_view kLabelName = "a non-empty name";
  // Order is the order of `help`: the paper's commands first (seed 004 sec. 2.3).
  static const Command kTable[] = {
      {"suggest",
       {optional(word("N"))},
       "list the suggester's top N starting summaries, numbered (default 10)",
       h::suggest},
      {"select",
       {word("N")},
       "make summary N current: its labels, cum, base, overlaps, call path and nearby summaries",
       h::select},
      {"path",
       {text("m1;m2;...", kMethods)},
       "make the summary of a call sequence current (prefixes and * globs naming one method; '..' for any frames "
       "between, :NAME for an aspect)",
       h::path},
      {"refine",
       {choice("below|split", "refinement"), optional(word("K"))},
       "rank P;..;x for every x below the current summary P, or P1;..;x;P2 at its K-th gap (seed 000)",
       h::refine},
      {"find",
       {text("PATTERN")},
       "list the methods whose name matches PATTERN (glob, or re:REGEX) with cum and base",
       h::find},
      {"aspect",
       {word("NAME"), choice("="), text("PATTERN")},
       "define the aspect :NAME, every method matching PATTERN (glob with | between alternatives, or re:REGEX)",
       h::aspect},
      {"aspects", {}, "list the aspects ranked like suggest, with their definitions", h::aspects},
      {"unaspect", {word("NAME")}, "forget the aspect :NAME", h::unaspect},
      {"exclude",
       {text("m1;m2;...", kMethods)},
       "search without every measurement whose stack satisfies the call sequence (as `path` reads it); filters "
       "stack",
       h::exclude},
      {"focus",
       {text("m1;m2;...", kMethods)},
       "search only the measurements whose stack satisfies the call sequence (e.g. P;..;:io); filters stack",
       h::focus},
      {"filters", {}, "list the exclude and focus filters in force and what they keep", h::filters},
      {"unfilter", {optional(choice("all", "unfilter argument"))}, "drop the last filter, or all of them", h::unfilter},
      {"show",
       {optional(choice("--full", "option"))},
       "print the current summary again; --full: every frame and name in full, whatever `set width`",
       h::show},
      {"back", {}, "return to the previous current summary", h::back},
      {"history", {}, "list the summaries made current so far, numbered", h::history},
      {"label", {text("NAME", kLabels, kLabelName)}, "give the current summary the label NAME", h::label},
      {"unlabel", {text("NAME", kLabels, kLabelName)}, "take the label NAME off the current summary", h::unlabel},
      {"labels", {}, "list labels with overlap-corrected totals and the coverage of all of them", h::labels},
      {"autolabel",
       {optional(choice("N|undo", "autolabel argument"))},
       "label at most N (default 15) non-overlapping bottlenecks covering the most cost; undo: remove them",
       h::autolabel},
      {"save", {text("FILE", kFiles)}, "write all labels to FILE as call sequences", h::save},
      {"load",
       {text("FILE", kFiles)},
       "add the labels saved in FILE (e.g. from another profile of the program)",
       h::load},
      {"flame",
       {optional(text("FILE", kFiles))},
       "draw the current summary with its callers and callees, or the whole profile, as a flame graph in FILE "
       "(default flame.html; NAME.svg: SVG), a causal recording's curves below it",
       h::flame},
      {"threads",
       {},
       "list the recording's thread classes: threads, instances, lifetime, share of each type of time (seed 000)",
       h::threads},
      {"causal",
       {optional(text("N|LABEL|m1;m2;...", kMethods))},
       "rank the targets of causal experiments by the program's speedup were each 50% faster, or show one's "
       "curve (`causal --progress NAME ...` picks the progress point; docs/causal.md)",
       h::causal},
      // Its alternatives, and what each searches after the help, are the source's views.
      {"view", {view_choice("view")}, "search another view", h::view},
      {"set", {}, "show the settings", h::settings},
      {"set suggester",
       {choice("HighCum|HighBase", "suggester")},
       "rank suggestions by |cum| (top-down) or |base| (bottom-up)",
       h::set_suggester},
      {"set zoom",
       {choice("on|off", "zoom setting")},
       "zoom through nearby summaries that concentrate the cost (seed 004 sec. 2.3)",
       h::set_zoom},
      {"set metric",
       {word("NAME", kMetrics)},
       "search another metric of the profile (e.g. calls or time of a call-tree recording; `set` lists them): "
       "labels stay, their costs change",
       h::set_metric},
      {"set cutoff", {word("C")}, "zoom cutoff ratio, a number > 0 (default 0.95)", h::set_cutoff},
      {"set limit",
       {choice("N|all")},
       "list at most N nearby summaries per group, heaviest |cum| first, then \"... and K more\" (default 5)",
       h::set_limit},
      {"set width",
       {choice("N|off")},
       "fit text to N columns, eliding long call paths in the middle (default: the terminal's width, else 80)",
       h::set_width},
      {"set noise",
       {choice("show|skip", "noise setting")},
       "comparisons of sampled runs: suggest differences within sampling noise too, or skip them",
       h::set_noise},
      {"set names",
       {choice("short|full", "names setting")},
       "print methods as Class.method or with their package",
       h::set_names},
      {"set model",
       {choice("paper|cpus N|measured", "model")},
       "typed time by Table 1 on one CPU, on N CPUs, or by the recorded schedstat nanoseconds (docs/views.md)",
       h::set_model},
      {"set states",
       {choice("running|runnable|all", "states")},
       "the tree view of running time (CPU; a recording's default), only runnable threads, or every sample (wall)",
       h::set_states},
      {"set threads",
       {choice("by"), choice("kind|class|name", "thread grouping")},
       "thread classes by kind (the program's Thread subclasses, others by name), by the Thread object's class, "
       "or by name with numbers folded (pool-#-thread-#)",
       h::set_threads},
      {"help", {optional(text("COMMAND", kCommands))}, "list commands, or describe one", h::help},
      {"quit", {}, "end the session", h::quit},
  };
  return kTable;
}

}  // namespace bn::repl
