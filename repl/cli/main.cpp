// Thin entry point: builds the command table and reports errors once.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "bn/iface/error.h"
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"bottlenecks: find the few execution paths worth optimising in Java programs"};
  app.set_version_flag("--version", "bottlenecks 0.1.0");
  app.require_subcommand(1);
  bn::cli::setup_info(app);
  bn::cli::setup_convert(app);
  bn::cli::setup_record(app);
  bn::cli::setup_repl(app);
  bn::cli::setup_generate(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const bn::Error& e) {
    std::fprintf(stderr, "bottlenecks: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bottlenecks: error: out of memory\n");
    return 1;
  }
  return 0;
}
