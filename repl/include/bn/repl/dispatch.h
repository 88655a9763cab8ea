#pragma once
// From a typed line to a row of the command table: exact names first, then unambiguous
// prefixes ("sel 3"), else a one-line error with a "did you mean"; then its arguments checked
// against the row and its handler run. Also the candidates for tab completion, from the same
// table.

#include <string>
#include <string_view>
#include <vector>

#include "bn/repl/commands.h"

namespace bn::repl {

struct Invocation {
  const Command* command = nullptr;
  std::string_view args;  // the rest of the line, trimmed
};

// The commands of a line typed at the terminal or given to -c: separated by line ends or by ';'
// followed by a blank or ending the text, so the ';' of a call sequence "a;b;c" separates
// nothing ("path a;b; label hot" is two commands).
std::vector<std::string_view> split_commands(std::string_view text);

// Throws bn::Error for an unknown, ambiguous or incomplete command. `line` must be non-blank.
Invocation parse_command(std::string_view line);

// Runs the handler of `invocation` once its arguments match its row as `context` offers it
// (Context::row, arguments.h); throws bn::Error with the usage from the row when they do not.
Output call(Context& context, const Invocation& invocation);

struct Completion {
  std::vector<std::string> words;  // replacements for the whole word being typed, sorted
  bool files = false;              // the argument is a file name: let the terminal complete it
  // A call sequence, which may go on with ';': a completed word gets no blank after it.
  bool call_sequence = false;
};

// Candidates for the word that ends `before_cursor` (the line up to the cursor), a word of the
// last of its commands (split_commands: "suggest; sel" completes "sel" as a command); words are
// separated by blanks only, so a call sequence "a;b;c" is one word, and a ';' just typed goes on
// with the call sequence.
Completion complete(Context& context, std::string_view before_cursor);

// The closest of `known` to `typed` when it is a plausible typo, else empty.
std::string_view closest_match(std::string_view typed, const std::vector<std::string_view>& known);

}  // namespace bn::repl
