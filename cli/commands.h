#pragma once
// The subcommands of the `bottlenecks` executable. Each lives in its own file as an options
// struct plus setup_* (registers options and the callback) and run_* (does the work), in the
// style of CLI11's examples/subcom_in_files. Errors are thrown as bn::Error and reported once,
// by main.

#include <CLI/CLI.hpp>

namespace bn::cli {

void setup_info(CLI::App& app);
void setup_convert(CLI::App& app);
void setup_record(CLI::App& app);
void setup_repl(CLI::App& app);
void setup_generate(CLI::App& app);
void setup_flame(CLI::App& app);
void setup_diff(CLI::App& app);
void setup_push(CLI::App& app);

}  // namespace bn::cli
