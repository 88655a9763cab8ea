#pragma once
// The interactive terminal: line editing (libedit), history across sessions in
// ~/.bottlenecks_history, and tab completion of commands, labels and method names from the
// command table.

#include <string_view>

#include "bn/repl/runner.h"

namespace bn::repl {

// Reads lines until `quit` or end of input, running each; errors are reported and the session
// goes on.
void run_terminal(Runner& runner, std::string_view banner);

}  // namespace bn::repl
