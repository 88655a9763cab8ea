#pragma once
// The interactive terminal: line editing (libedit), history across sessions in
// ~/.bottlenecks_history, and tab completion of commands, labels and method names from the
// command table.

#include <string_view>

#include "bn/repl/runner.h"

namespace bn::repl {

// Reads lines until `quit` or end of input, running each; errors are reported and the session
// goes on. With labels changed since the last save, `quit` and Ctrl-D first ask whether to quit
// without them (y/N; anything but yes goes back to the prompt). Returns true when the user
// answered yes, false when the session ended otherwise (then unsaved labels are the caller's to
// keep: autosave.h).
bool run_terminal(Runner& runner, std::string_view banner);

}  // namespace bn::repl
