#pragma once
// Runs command lines against a session and prints their outputs: the one path every input
// takes (terminal, command file, -c, piped stdin). Terminal I/O lives in terminal.h.

#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "bn/repl/commands.h"
#include "bn/repl/output.h"
#include "bn/search/session.h"

namespace bn::repl {

struct RunOptions {
  bool json = false;   // one JSON object per command (JSON Lines) instead of text
  bool echo = false;   // text mode: print each line after a prompt, so a script reads as a session
  bool color = false;  // text mode: colour by cost (only on a terminal, never with NO_COLOR)
};

enum class LineResult { kOk, kFailed, kQuit };

class Runner {
 public:
  Runner(search::Session& session, std::ostream& out, std::ostream& err, RunOptions options);

  // Runs one line; blank lines and '#' comments do nothing. Errors are printed to `err` as one
  // line prefixed with `location` ("walk.cmds:3"; empty at the terminal), and in JSON mode also
  // as a JSON object on `out`. A failing command leaves the session as it was, but for a
  // failing `path` or `select`, which leaves no summary current (Session::withdraw_current). `hint` is added to
  // its error message.
  LineResult run_line(std::string_view line, std::string_view location, std::string_view hint = {});

  // Reports an input error that is not a command's (e.g. an over-long line) like a failed one.
  LineResult report_error(std::string_view location, std::string_view message);

  Context& context() { return context_; }
  static constexpr std::string_view kPrompt = "bottlenecks> ";
  // Called once a command's work is done, before anything of it is printed (the terminal erases
  // its progress line there).
  void set_before_output(std::function<void()> before_output) { before_output_ = std::move(before_output); }

 private:
  RenderContext render_context() const;
  LineResult fail(std::string_view line, std::string_view location, std::string_view message);

  search::Session& session_;
  Context context_;
  std::ostream& out_;
  std::ostream& err_;
  RunOptions options_;
  std::function<void()> before_output_;
};

struct ScriptResult {
  int failures = 0;
  bool stopped = false;  // stopped at a failure (no --keep-going)
};

// Runs every line of `in`, naming errors `name:LINE`; stops at `quit` and, unless keep_going,
// at the first failure.
ScriptResult run_script(Runner& runner, std::istream& in, std::string_view name, bool keep_going);
// Runs the commands of a `-c` argument (split_commands, dispatch.h). Errors are named `-c:N`.
ScriptResult run_commands(Runner& runner, std::string_view text, bool keep_going);

}  // namespace bn::repl
