#pragma once
// Options every command that reads a profile shares, registered in one place.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_loader.h"
#include "fleet_source.h"

namespace bn::cli {

struct ProfileOptions {
  std::string path;
  bool partial = false;
  bool keep_signatures = false;
  std::string sample_type;
  bool thread_frames = false;
  std::string metric;  // empty: the profile's metric 0
  // A call-tree recording gets the metric time-less-probes (probe_cost.h), searched by default:
  // the question is where the program spends its time, not where the probes do. Off where a
  // file is described or converted as recorded.
  bool probe_estimate = true;
  // A clickhouse:// source read as one run per host or per day ("host", "day"; empty: one run).
  std::string runs_by;
};

// Runs a parse of a library, naming the command-line option whose value it refused:
// "--model: bad model 'fast': ...".
template <class F>
auto parsing_option(const char* option, F&& parse) {
  try {
    return parse();
  } catch (const Error& e) {
    throw Error(std::string(option) + ": " + e.what());
  }
}

// Adds the positional PROFILE and the loading flags to `sub`.
void add_profile_options(CLI::App& sub, ProfileOptions& options);
// Opens the profile, with a progress line on a terminal for a long read, adds the derived
// metric of `probe_estimate`, and makes the metric asked for (else the derived one) its metric 0
// (the one every backend reads). Throws bn::Error naming the file and
// listing its metrics if it has no such metric.
calltree::OpenedProfile open_profile_from(const ProfileOptions& options);
// As open_profile_from, for a command that takes several runs: a clickhouse:// source with
// --runs-by is one run per host or day, named by the URL and its host or day.
std::vector<OpenedRunOf> open_runs_from(const ProfileOptions& options);
// open_runs_from of each of `sources`, in their order. Files are read several at a time, under
// one progress line; the error thrown is the one reading them in order would throw first.
std::vector<std::vector<OpenedRunOf>> open_each_runs_from(const std::vector<ProfileOptions>& sources);
// The metrics of `tree` for messages: "time (ns), calls (count)".
std::string metric_list(const calltree::CallTree& tree);
// The index of metric `name` in `tree`; throws bn::Error "no metric 'x' in WHERE (it has ...)".
std::size_t find_metric_or_throw(const calltree::CallTree& tree, std::string_view name, std::string_view where);

}  // namespace bn::cli
