// `bottlenecks diff A... --base B...`: a non-interactive report of what got slower and what got
// faster between candidate runs A and baseline runs B, for continuous integration. Exit status 0
// when no gate trips, 1 when a regression trips one, 2 on an error (main.cpp), so a CI job can
// tell a regression from a broken pipeline. docs/compare.md, "The diff gate", and docs/ci.md.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/base/output_file.h"
#include "commands.h"
#include "diff_gate.h"
#include "diff_render.h"
#include "diff_report.h"
#include "flame_drawing.h"
#include "search_source.h"

namespace bn::cli {
namespace {

struct DiffOptions {
  SearchOptions search;  // A's runs, --base B's runs, the view
  std::vector<std::string> fail_if;
  std::string min_effect = "0.5%";
  std::string format = "text";
  std::string output = "-";
  std::string flame;
};

void write_report(const std::string& path, const std::string& text) {
  base::OutputFile out(path);
  if (std::fwrite(text.data(), 1, text.size(), out.stream()) != text.size())
    throw Error("cannot write " + out.describe());
  out.commit();
}

void run_diff(const DiffOptions& o) {
  DiffSettings settings;
  for (const std::string& text : o.fail_if) settings.gates.push_back(parse_gate(text));
  settings.min_effect = parse_percent(o.min_effect, "--min-effect", false);
  if (!o.flame.empty()) flame_file_of(o.flame);  // refused before the runs are read

  SearchSource search(o.search);
  const DiffReport report = make_diff_report(*search.comparison(), search.a_side(), search.b_side(), settings);
  const std::string text = o.format == "json"       ? diff_json(report)
                           : o.format == "markdown" ? diff_markdown(report)
                                                    : diff_text(report);
  write_report(o.output, text);
  if (!o.flame.empty()) {
    search::FlameRequest request;
    request.file = o.flame;
    draw_flame_graph(search, request);
  }
  // The report is written; the status alone says a gate tripped.
  if (report.tripped()) throw CLI::RuntimeError(1);
}

}  // namespace

void setup_diff(CLI::App& app) {
  auto options = std::make_shared<DiffOptions>();
  CLI::App* sub = app.add_subcommand(
      "diff",
      "Report what got slower and faster between runs A and baseline runs B, with a significance test and a "
      "gate for CI (exit 0 pass, 1 a regression trips the gate, 2 an error)");
  add_profile_options(*sub, options->search.profile);
  add_view_options(*sub, options->search);
  add_compare_options(*sub, options->search.compare);
  // `--base base-*.bnp`: every file after --base is a run of B, as a shell glob expands it.
  sub->get_option("--base")->allow_extra_args(true)->required()->description(
      "The baseline runs B: every file after --base (as a shell glob expands base-*.bnp), or --base repeated; "
      "averaged exactly");
  sub->add_option("--fail-if", options->fail_if,
                  "Fail (exit 1) when EXPR holds: 'cum > P%' (a reported summary's significant regression above P% "
                  "of B's total), 'total > P%', 'method GLOB > P%' (the methods matching GLOB, e.g. com.acme.*). "
                  "Repeatable; default 'cum > 1%'")
      ->allow_extra_args(false);
  sub->add_option("--min-effect", options->min_effect,
                  "Leave out differences smaller than this share of B's total (default 0.5%)");
  sub->add_option("--format", options->format, "text (default, 80 columns), markdown (a pull-request comment) or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  sub->add_option("-o,--output", options->output, "Write the report to FILE (atomically; default standard output)");
  sub->add_option("--flame", options->flame, "Also draw the A - B flame graph to FILE.html (or .svg)");
  sub->callback([options] { run_diff(*options); });
}

}  // namespace bn::cli
