// Thin entry point: builds the command table and reports errors once.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/search/text.h"
#include "commands.h"

namespace {

// `diff` gates a CI job, where status 1 means a regression trips the gate: its errors (bad
// options, unreadable files) exit 2 so a broken pipeline is never read as a regression.
int error_status(const CLI::App& app, int otherwise) {
  for (const CLI::App* sub : app.get_subcommands())
    if (sub->get_name() == "diff") return 2;
  return otherwise;
}

int run(int argc, char** argv) {
  CLI::App app{"bottlenecks: find the few execution paths worth optimising in Java programs"};
  app.set_version_flag("--version", "bottlenecks 0.1.0");
  app.require_subcommand(1);
  bn::cli::setup_info(app);
  bn::cli::setup_convert(app);
  bn::cli::setup_record(app);
  bn::cli::setup_repl(app);
  bn::cli::setup_generate(app);
  bn::cli::setup_flame(app);
  bn::cli::setup_diff(app);
  bn::cli::setup_push(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    // A command that already reported its errors and only sets the exit status.
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // One line, like every other error (CLI11's own report adds a second line). A first word that
    // names no command is reported as such: CLI11 would say only that a command is required.
    const std::vector<std::string> rest = app.remaining();
    if (app.get_subcommands().empty() && !rest.empty() && !rest.front().starts_with('-')) {
      std::string commands;
      for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        commands += (commands.empty() ? "" : ", ") + sub->get_name();
      std::fprintf(stderr, "bottlenecks: error: unknown command '%s'; the commands: %s (see --help)\n",
                   bn::search::terminal_safe(rest.front()).c_str(), commands.c_str());
    } else {
      std::fprintf(stderr, "bottlenecks: error: %s (see --help)\n", e.what());
    }
    return error_status(app, e.get_exit_code());
  } catch (const bn::Error& e) {
    // Readers quote what they found in the file: never raw to a terminal.
    std::fprintf(stderr, "bottlenecks: error: %s\n", bn::search::terminal_safe(e.what()).c_str());
    return error_status(app, 1);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bottlenecks: error: out of memory\n");
    return error_status(app, 1);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Anything run() did not expect is a defect of ours: one line and a distinct status, never an
  // abort from an exception leaving main.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bottlenecks: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "bottlenecks: internal error\n");
  }
  return 2;
}
