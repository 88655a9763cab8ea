#pragma once
// Which thread states each side of a comparison counts. A recording with per-sample records can
// be restricted to running or runnable threads (docs/views.md); a profile without them counts
// what its profiler sampled: JFR's execution samples are of threads running Java code, a collapsed
// or pprof file says nothing. A minus B means something only when both sides count the same
// states, so a comparison that mixes the two aligns the recordings with the others.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "view_table.h"

namespace bn::cli {

// The files of a comparison, each side in order (PROFILE and RUNS; each --base).
struct ComparedFiles {
  const std::vector<std::shared_ptr<OpenedFile>>& a;
  const std::vector<std::shared_ptr<OpenedFile>>& b;
  std::string sample_type;  // --sample-type, which picks a JFR file's events; empty: execution samples
};

// Some files have per-sample thread states and some have not.
bool mixes_states(const ComparedFiles& files);
// The states to open the recordings on when none are asked: runnable threads, one sample each,
// as a sampling profiler counts them, when the comparison mixes; otherwise nullopt (the file's
// default, running time).
std::optional<views::States> aligned_states(const ComparedFiles& files);
// Throws bn::Error when the recordings of a mixed comparison would count running time, a share
// of a CPU the other side cannot weigh (`wanted` is the view in force).
void check_states(const ComparedFiles& files, const Wanted& wanted);
// For a mixed comparison, one header line: what each side counts and whether they match; "".
std::string states_line(const ComparedFiles& files, const Wanted& wanted);

}  // namespace bn::cli
