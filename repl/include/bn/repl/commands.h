#pragma once
// The command table, in the style of the DuckDB shell's metadata commands: one row per command
// with {name, args, help, completion, handler}. Help, tab completion, prefix matching and "did
// you mean" all read this table, so they cannot drift from dispatch.

#include <optional>
#include <span>
#include <string_view>

#include "bn/repl/method_names.h"
#include "bn/repl/output.h"
#include "bn/repl/session.h"

namespace bn::repl {

// What a handler works on: the session plus caches derived from its profile.
class Context {
 public:
  explicit Context(Session& session) : session_(&session) {}
  Session& session() const { return *session_; }
  // The profile's method names, indexed on first use.
  const MethodIndex& methods();

 private:
  Session* session_;
  std::optional<MethodIndex> methods_;
};

// How the arguments of a command are completed at the terminal.
enum class ArgCompletion {
  kNone,
  kChoices,  // the '|'-separated words of Command::args ("on|off")
  kLabels,
  kMethods,  // a call sequence: complete the method after the last ';'
  kFiles,
  kCommands,
};

struct Command {
  std::string_view name;  // one word, or two for settings ("set zoom")
  std::string_view args;  // usage, e.g. "N" or "[N]" or "HighCum|HighBase"
  std::string_view help;  // one line
  ArgCompletion completion;
  // Validates everything before changing the session, so a failing command changes nothing.
  // Throws bn::Error with a one-line message.
  Output (*handler)(Context& context, std::string_view args);
};

std::span<const Command> command_table();

}  // namespace bn::repl
