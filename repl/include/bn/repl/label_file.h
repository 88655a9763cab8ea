#pragma once
// The label file of `save` and `load`: labels as call sequences, so they can be reloaded into
// another profile of the same program (e.g. after an optimisation). Text, one method per line
// because JVM signatures may contain ';':
//
//   # bottlenecks labels v1
//   label hot-security
//     a
//     b
//
// Each `label NAME` line starts one labelled summary; the indented lines that follow are its
// call sequence, outermost first. '#' lines and blank lines are ignored.

#include <filesystem>
#include <string>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/repl/labels.h"

namespace bn::repl {

struct SavedLabel {
  std::string label;
  std::vector<std::string> calls;
  int line = 0;  // of its `label` line, for messages
};

// Writes every label atomically (temporary file, then rename). Throws bn::Error naming the file.
void save_labels(const std::filesystem::path& file, iface::Profile& profile, const LabelSet& labels);
// Parses a label file completely; throws bn::Error naming file:line on the first bad line.
std::vector<SavedLabel> read_label_file(const std::filesystem::path& file);

}  // namespace bn::repl
