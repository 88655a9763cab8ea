#include "bn/repl/runner.h"

#include <vector>

#include "bn/iface/error.h"
#include "bn/repl/dispatch.h"
#include "bn/repl/render.h"

namespace bn::repl {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

}  // namespace

Runner::Runner(Session& session, std::ostream& out, std::ostream& err, RunOptions options)
    : session_(session), context_(session), out_(out), err_(err), options_(options) {}

RenderContext Runner::render_context() const {
  iface::Profile& p = session_.profile();
  return {p.total(), p.denominator(), p.metric(), session_.settings().names, options_.color && !options_.json};
}

LineResult Runner::run_line(std::string_view raw, std::string_view location) {
  const std::string_view line = trim(raw);
  if (line.empty()) return LineResult::kOk;
  const bool text = !options_.json;
  if (line.front() == '#') {
    if (text && options_.echo) out_ << line << "\n";
    return LineResult::kOk;
  }
  if (text && options_.echo) out_ << kPrompt << line << "\n";
  try {
    const Invocation invocation = parse_command(line);
    const Output output = invocation.command->handler(context_, invocation.args);
    if (text) {
      render_text(output, render_context(), out_);
      if (options_.echo) out_ << "\n";
    } else {
      out_ << render_json(output, invocation.command->name, line, render_context()) << "\n";
    }
    out_.flush();
    return std::holds_alternative<QuitOutput>(output) ? LineResult::kQuit : LineResult::kOk;
  } catch (const Error& e) {
    if (!text) out_ << render_json_error(line, location, e.what()) << "\n";
    // Errors go to their own stream; flush first so a merged transcript keeps the order.
    out_.flush();
    err_ << "bottlenecks: error: " << location << (location.empty() ? "" : ": ") << e.what() << "\n";
    err_.flush();
    if (text && options_.echo) out_ << "\n";
    return LineResult::kFailed;
  }
}

namespace {

// Records the result of one line; false when the run must stop there.
bool keep_running(ScriptResult& result, LineResult r, bool keep_going) {
  if (r == LineResult::kQuit) return false;
  if (r == LineResult::kFailed) {
    ++result.failures;
    result.stopped = !keep_going;
  }
  return !result.stopped;
}

}  // namespace

ScriptResult run_script(Runner& runner, std::istream& in, std::string_view name, bool keep_going) {
  // Line by line, so piped input runs as it arrives rather than at end of input.
  ScriptResult result;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    if (!keep_running(result, runner.run_line(line, std::string(name) + ":" + std::to_string(number)), keep_going))
      break;
  return result;
}

ScriptResult run_commands(Runner& runner, std::string_view text, bool keep_going) {
  std::vector<std::string> commands(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool separator = text[i] == '\n' || (text[i] == ';' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t'));
    if (separator)
      commands.emplace_back();
    else
      commands.back() += text[i];
  }
  ScriptResult result;
  for (std::size_t i = 0; i < commands.size(); ++i)
    if (!keep_running(result, runner.run_line(commands[i], "-c:" + std::to_string(i + 1)), keep_going)) break;
  return result;
}

}  // namespace bn::repl
