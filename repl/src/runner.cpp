#include "bn/repl/runner.h"

#include <vector>

#include "bn/base/error.h"
#include "bn/repl/dispatch.h"
#include "bn/repl/render.h"
#include "bn/search/text.h"

namespace bn::repl {
Runner::Runner(search::Session& session, std::ostream& out, std::ostream& err, RunOptions options)
    : session_(session), context_(session), out_(out), err_(err), options_(options) {}

RenderContext Runner::render_context() const {
  iface::Profile& p = session_.profile();
  std::vector<std::string> filters;
  if (const search::ProfileSource* source = session_.source())
    for (const iface::ProfileFilter& f : source->filters()) filters.push_back(f.text());
  return {p.total(),
          p.percent_base(),
          p.denominator(),
          p.metric(),
          iface::display_unit(p.metric()),
          session_.settings().names,
          options_.color && !options_.json,
          session_.settings().width,
          session_.source() && session_.source()->has_views() ? session_.view() : std::string(),
          std::move(filters)};
}

LineResult Runner::run_line(std::string_view raw, std::string_view location, std::string_view hint) {
  const std::string_view line = search::trim(raw);
  if (line.empty()) return LineResult::kOk;
  const bool text = !options_.json;
  if (line.front() == '#') {
    if (text && options_.echo) out_ << search::terminal_safe(line) << "\n";
    return LineResult::kOk;
  }
  if (text && options_.echo) out_ << kPrompt << search::terminal_safe(line) << "\n";
  try {
    const Invocation invocation = parse_command(line);
    const Output output = call(context_, invocation);
    if (before_output_) before_output_();
    if (text) {
      render_text(output, render_context(), out_);
      if (options_.echo) out_ << "\n";
    } else {
      out_ << render_json(output, invocation.command->name, line, render_context()) << "\n";
    }
    out_.flush();
    return std::holds_alternative<QuitOutput>(output) ? LineResult::kQuit : LineResult::kOk;
  } catch (const Error& e) {
    if (before_output_) before_output_();
    return fail(line, location, e.what() + std::string(hint));
  }
}

LineResult Runner::report_error(std::string_view location, std::string_view message) {
  return fail("", location, message);
}

LineResult Runner::fail(std::string_view line, std::string_view location, std::string_view message) {
  if (options_.json) out_ << render_json_error(line, location, message) << "\n";
  // Errors go to their own stream; flush first so a merged transcript keeps the order.
  out_.flush();
  // Messages quote names from the profile: never raw to a terminal.
  err_ << "bottlenecks: error: " << search::terminal_safe(location) << (location.empty() ? "" : ": ")
       << search::terminal_safe(message) << "\n";
  err_.flush();
  if (!options_.json && options_.echo) out_ << "\n";
  return LineResult::kFailed;
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

// A command is one short line; a longer one is not a command, and reading it whole would let bad
// input allocate without bound. Skipping one is bounded too, and a NUL byte ends the script at
// once: otherwise `-f /dev/zero` reads forever.
constexpr std::size_t kMaxLine = 1 << 20;
constexpr std::size_t kMaxSkipped = std::size_t{16} << 20;

enum class LineRead { kLine, kTooLong, kNotText, kEnd };

// Reads one line of at most kMaxLine bytes into `line`; the rest of a longer line is skipped.
LineRead read_line(std::istream& in, std::string& line) {
  line.clear();
  std::size_t skipped = 0;
  std::istream::int_type c;
  bool any = false;
  while ((c = in.get()) != std::istream::traits_type::eof()) {
    any = true;
    if (c == '\n') return skipped > 0 ? LineRead::kTooLong : LineRead::kLine;
    if (c == '\0' || skipped > kMaxSkipped) return LineRead::kNotText;
    if (line.size() < kMaxLine)
      line += static_cast<char>(c);
    else
      ++skipped;
  }
  if (!any) return LineRead::kEnd;
  return skipped > 0 ? LineRead::kTooLong : LineRead::kLine;
}

}  // namespace

ScriptResult run_script(Runner& runner, std::istream& in, std::string_view name, bool keep_going) {
  // Line by line, so piped input runs as it arrives rather than at end of input.
  ScriptResult result;
  std::string line;
  for (int number = 1;; ++number) {
    const LineRead read = read_line(in, line);
    if (read == LineRead::kEnd) break;
    const std::string location = std::string(name) + ":" + std::to_string(number);
    if (read == LineRead::kNotText) {
      runner.report_error(location, "not a command file (a NUL byte, or a line longer than 16 MiB)");
      ++result.failures;
      result.stopped = true;
      break;
    }
    const LineResult r = read == LineRead::kTooLong ? runner.report_error(location, "line longer than 1 MiB")
                                                    : runner.run_line(line, location);
    if (!keep_running(result, r, keep_going)) break;
  }
  return result;
}

namespace {

// A failing `-c` command that holds "';' + a command's name" ("suggest 2;select 0") was most
// likely meant as two commands: say how commands are separated. A call sequence ("a;b") holds
// ';' too, so this is only said when the word after it names a command.
std::string separator_hint(std::string_view command) {
  for (std::size_t semi = command.find(';'); semi != std::string_view::npos; semi = command.find(';', semi + 1)) {
    const std::string_view word = search::split_word(command.substr(semi + 1)).first;
    for (const Command& row : command_table())
      if (!word.empty() && search::equals_nocase(search::split_word(row.name).first, word))
        return " (in -c, commands are separated by '; ', a semicolon and a blank: ';" + std::string(word) +
               "' does not start a command)";
  }
  return {};
}

}  // namespace

ScriptResult run_commands(Runner& runner, std::string_view text, bool keep_going) {
  const std::vector<std::string_view> commands = split_commands(text);
  ScriptResult result;
  for (std::size_t i = 0; i < commands.size(); ++i)
    if (!keep_running(result, runner.run_line(commands[i], "-c:" + std::to_string(i + 1), separator_hint(commands[i])),
                      keep_going))
      break;
  return result;
}

}  // namespace bn::repl
