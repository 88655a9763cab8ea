#pragma once
// `bottlenecks repl A --base B`: the options that ask for A minus B (seed 004 sec. 2.2), the
// comparison built from them, and the header that states what is subtracted and how B is
// normalised. search.h opens the two files.

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "bn/comparative/comparative_profile.h"
#include "bn/iface/amount.h"
#include "bn/iface/units.h"

namespace bn::cli {

struct CompareCliOptions {
  std::vector<std::string> more;  // PROFILE's further runs (positional), averaged with it
  std::vector<std::string> base;  // --base, once per run of B; empty = search one profile
  std::string normalize = "none";
  std::string scale;  // --scale F; empty = not given
  bool force = false;
};

// How a command takes RUNS without --base.
enum class RunsAlone {
  refused,  // RUNS need --base
  pooled,   // the REPL: the tree searched is PROFILE's, and `causal` pools every recording's experiments
};
// Registers the positional RUNS after PROFILE, and --base, --normalize, --scale and --force on
// `sub`.
void add_compare_options(CLI::App& sub, CompareCliOptions& options, RunsAlone runs_alone = RunsAlone::refused);
// The library's options for the command line's; throws bn::Error naming the bad option.
comparative::CompareOptions to_compare_options(const CompareCliOptions& options);
// The mean of A's runs minus the mean of B's; throws bn::Error naming --base (or `a_names`, A's
// files, when A's runs do not measure the same) and, for different metrics, --force.
std::unique_ptr<comparative::ComparativeProfile> make_comparison(const std::vector<iface::Profile*>& a,
                                                                 const std::vector<iface::Profile*>& b,
                                                                 const comparative::CompareOptions& compare,
                                                                 const CompareCliOptions& options,
                                                                 const std::string& a_names);

// A path's file name: headers and JSON name profiles by it, since golden transcripts must not
// depend on where the tree lives.
std::string file_name(const std::string& path);

// Paths as a message names them: "a1.collapsed, a2.collapsed".
std::string joined(const std::vector<std::string>& paths);

// One run of a side as the header names it: its file and raw total (before normalisation).
struct Run {
  std::string path;
  iface::Amount total = 0;  // over the run's own denominator
  iface::Amount denominator = 1;
};
using Side = std::vector<Run>;  // one run, or several averaged

// Header lines: what is subtracted, the raw totals, the normalisation, then any notes.
std::vector<std::string> comparison_header(comparative::ComparativeProfile& p, const Side& a, const Side& b);
// The same facts as one JSON Lines object, command "compare".
std::string comparison_header_json(comparative::ComparativeProfile& p, const Side& a, const Side& b);

}  // namespace bn::cli
