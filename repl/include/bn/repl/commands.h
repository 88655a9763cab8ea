#pragma once
// The command table, in the style of the DuckDB shell's metadata commands: one row per command
// with {name, args, help, handler}. Help, usage errors, argument checks, tab completion, prefix
// matching and "did you mean" all read this table, so they cannot drift from dispatch.
//
// Adding a command is one row and one handler:
//  1. A row {name, args, help, handler} in command_table() (src/command_table.cpp), placed where
//     `help` should list it. The name is one word, or two for a setting ("set model"). The args
//     are built with word/text/choice/optional (arguments.h); help, usage errors, the argument
//     check and tab completion all follow from them:
//       {optional(word("N"))}                                  autolabel [N]
//       {optional(text("FILE", ArgCompletion::kFiles))}        flame [FILE]
//       {choice("paper|cpus N|measured", "model")}             set model paper|cpus N|measured
//       {choice("by"), choice("class|name", "grouping")}       set threads by class|name
//       {view_choice("view")}                                  view tree|server|thread CLASS
//       {word("NAME"), choice("="), text("PATTERN")}           aspect NAME = PATTERN
//  2. The handler, declared in src/handlers.h and defined in the src/commands_*.cpp of its group.
//     Its arguments arrive matched and counted: args[i].text is what was typed, .keyword the
//     keyword of the alternative as the row spells it ("HighCum"), .param the word after
//     "thread". It compares keywords, parses values only, and throws args.usage_error(i) for a
//     value it finds malformed.
// Then a golden transcript in tests/golden for what it prints, and its line in docs/repl.md:
// tests/cli/tables_test.cpp fails until both are there (docs/architecture.md lists every file).

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "bn/repl/arguments.h"
#include "bn/repl/output.h"
#include "bn/search/method_names.h"
#include "bn/search/session.h"

namespace bn::repl {

class Context;

struct Command {
  std::string_view name;  // one word, or two for settings ("set zoom")
  ArgSpec args;           // checked before the handler runs; shown by help as usage_text(args)
  std::string_view help;  // one line
  // Validates everything before changing the session, so a failing command changes nothing
  // (but `path` and `select`, which leave no summary current when they fail: a `label` after a typo
  // must not label the summary the user was leaving).
  // Throws bn::Error with a one-line message.
  Output (*handler)(Context& context, const Arguments& args);
};

// What a handler works on: the session plus caches derived from its profile.
class Context {
 public:
  explicit Context(search::Session& session) : session_(&session) {}
  search::Session& session() const { return *session_; }
  // The profile's method names, indexed on first use.
  const search::MethodIndex& methods();
  // The summary of a typed call sequence as `path` reads it (search::resolve_call_sequence with
  // the session's aspects and its source's typed time); throws bn::Error.
  iface::Summary resolve(std::string_view typed);
  // After the session's source switched its profile: the caches go.
  void profile_changed() { methods_.reset(); }
  // A row of command_table() as this session offers it: a view_choice spelled out from the kinds
  // of view of the session's source (usage "tree|server|thread CLASS", and the row's help
  // followed by what each searches). Any other row, or any row without a source, is `command`
  // itself. Dispatch, help and completion all read rows through this.
  const Command& row(const Command& command);

 private:
  // The text a spelled-out row's views point into, kept with it.
  struct SpelledRow {
    std::string usage, help;
    Command row;
  };

  search::Session* session_;
  std::optional<search::MethodIndex> methods_;
  std::map<const Command*, std::unique_ptr<SpelledRow>> spelled_;  // by the row of command_table()
};

std::span<const Command> command_table();

}  // namespace bn::repl
