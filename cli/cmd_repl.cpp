// `bottlenecks repl PROFILE`: the BOTTLENECKS user interface (seed 004 sec. 2.3) on one
// profile — interactive at a terminal, scripted with -f/-c or piped input. The session knows
// only bn::iface::Profile; which profile it searches (a view, A minus B) is search.h's business.

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "bn/base/error.h"
#include "bn/iface/units.h"
#include "bn/repl/autosave.h"
#include "bn/repl/elide.h"
#include "bn/repl/runner.h"
#include "bn/repl/terminal.h"
#include "bn/search/session.h"
#include "bn/search/text.h"
#include "commands.h"
#include "search_source.h"

namespace bn::cli {
namespace {

struct ReplOptions {
  SearchOptions search;  // PROFILE, its view, --base
  std::string file;      // -f: run a command file, then exit
  std::string commands;  // -c: run these commands, then exit
  bool json = false;
  bool keep_going = false;
};

// NO_COLOR (no-color.org): any non-empty value turns colour off.
bool color_allowed() {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

// The width of the terminal standard output goes to, or 0 when it is not one.
std::size_t terminal_columns() {
  winsize size{};
  if (!isatty(STDOUT_FILENO) || ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

std::string banner(SearchSource& search) {
  iface::Profile& profile = search.profile();
  const iface::MetricInfo metric = profile.metric();
  return "bottlenecks: " + search::terminal_safe(search.a_paths().front()) + " (" + search.format() + "), " +
         search::counted(profile.initial_summaries().size(), "method") + ", total " +
         iface::amount_text(profile.total(), profile.denominator(), iface::display_unit(metric)) +
         ". `help` lists commands, `suggest` starts a search.";
}

// Where labels a session did not save are kept: $XDG_STATE_HOME/bottlenecks, else
// ~/.local/state/bottlenecks (the XDG base directories' place for state that outlives a session).
std::filesystem::path autosave_dir() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state && *state == '/') return std::filesystem::path(state) / "bottlenecks";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "state" / "bottlenecks";
}

// A session that ends with labels changed since the last save keeps them in a file and says
// where; on stderr, so standard output stays the commands' (and JSON Lines).
void keep_unsaved_labels(const search::Session& session) {
  if (!session.any_labels_dirty()) return;
  try {
    for (const std::filesystem::path& file : repl::autosave_labels(session, autosave_dir()))
      std::cerr << "bottlenecks: unsaved labels kept (`load FILE` brings them back):\n  "
                << search::terminal_safe(file.string()) << "\n";
  } catch (const Error& e) {
    std::cerr << "bottlenecks: warning: unsaved labels are lost: " << search::terminal_safe(e.what()) << "\n";
  }
}

void run_repl(const ReplOptions& o) {
  SearchSource search(o.search);
  search::Session session(search);
  // Text fits the terminal when there is one (`set width` changes it), else 80 columns.
  if (const std::size_t columns = terminal_columns(); columns > 0) session.settings().width = columns;
  const bool interactive = o.file.empty() && o.commands.empty() && isatty(STDIN_FILENO);
  repl::Runner runner(session, std::cout, std::cerr, {.json = o.json, .echo = !interactive, .color = color_allowed()});
  std::string header;
  for (const std::string& line : search.header())
    header += repl::wrap(search::terminal_safe(line), session.settings().width) + "\n";
  if (interactive) {
    if (!repl::run_terminal(runner, header + banner(search))) keep_unsaved_labels(session);
    return;
  }
  if (!header.empty()) std::cout << (o.json ? search.header_json() + "\n" : header + "\n");
  repl::ScriptResult result;
  if (!o.file.empty()) {
    std::error_code ec;
    if (std::filesystem::is_directory(o.file, ec)) throw Error("cannot run command file '" + o.file + "': a directory");
    std::ifstream in(o.file);
    if (!in) throw Error("cannot open command file '" + o.file + "'");
    result = repl::run_script(runner, in, o.file, o.keep_going);
  } else if (!o.commands.empty()) {
    result = repl::run_commands(runner, o.commands, o.keep_going);
  } else {
    result = repl::run_script(runner, std::cin, "<stdin>", o.keep_going);
  }
  keep_unsaved_labels(session);
  // The failing command was reported where it happened; --keep-going adds a count.
  if (result.stopped) throw CLI::RuntimeError(1);
  if (result.failures > 0) throw Error(std::to_string(result.failures) + " command(s) failed");
}

}  // namespace

void setup_repl(CLI::App& app) {
  auto options = std::make_shared<ReplOptions>();
  CLI::App* sub =
      app.add_subcommand("repl", "Search a profile for bottlenecks: suggest, select, zoom, label (seed 004)");
  add_profile_options(*sub, options->search.profile);
  add_view_options(*sub, options->search);
  auto* file = sub->add_option("-f,--file", options->file, "Run the commands in FILE, then exit");
  sub->add_option("-c,--commands", options->commands,
                  "Run these commands, then exit (separate them by newlines or '; ')")
      ->excludes(file);
  sub->add_flag("--json", options->json, "Print one JSON object per command (JSON Lines, exact values)");
  sub->add_flag("--keep-going", options->keep_going,
                "In a script, go on after a failing command (the exit status is still 1)");
  add_compare_options(*sub, options->search.compare, RunsAlone::pooled);
  sub->callback([options] { run_repl(*options); });
}

}  // namespace bn::cli
