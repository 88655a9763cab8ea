#pragma once
// The label file of `save` and `load`: labels as call sequences, so they can be reloaded into
// another profile of the same program (e.g. after an optimisation). Text, one method per line
// because JVM signatures may contain ';':
//
//   # bottlenecks labels v2
//   view thread Sender
//   aspect io = java.io.*|java.nio.*
//   label hot-security
//     a
//     b
//   label io-below-a
//     a
//     ..
//     :io
//
// The `view` line names the view the labels were made in (docs/views.md); a file without one
// was saved from the tree view. Each `aspect NAME = PATTERN` line (before the first label)
// defines an aspect the call sequences use as `:NAME`; a gap is a `..` line (seed 000 sec. 2-3).
// Each `label NAME` line starts one labelled summary; the indented lines that follow are its call
// sequence, outermost first. '#' lines and blank lines are ignored. Version 2 writes a name that a
// line cannot hold as it is (empty, blank at an end, a control character such as a newline, a
// leading '"') in double quotes with C escapes ("a\nb", "\x1b", "\"", "\\"), so every name reads
// back exactly; version 1 files (no quoting) still load, their names taken as they are.

// The file format alone (reading and writing the text), without the profile: the analyzer's
// search (bn/search/label_file.h) and the recorder's causal targets and methods= both read it.

#include <filesystem>
#include <string>
#include <vector>

namespace bn::base {

struct SavedLabel {
  std::string label;
  std::vector<std::string> calls;
  int line = 0;  // of its `label` line, for messages
};

struct SavedAspect {
  std::string name;
  std::string pattern;  // as MethodPattern::text() gives it
  int line = 0;
};

struct LabelFile {
  std::string view = "tree";
  std::vector<SavedAspect> aspects;
  std::vector<SavedLabel> labels;
};

// Writes `labels`, made in `view`, and the definitions of the aspects they use, atomically
// (temporary file, then rename). Throws bn::Error naming the file.
void write_label_file(const std::filesystem::path& file, const std::string& view, const std::vector<SavedLabel>& labels,
                      const std::vector<SavedAspect>& aspects = {});
// Parses a label file completely; throws bn::Error naming file:line on the first bad line.
LabelFile read_label_file(const std::filesystem::path& file);

}  // namespace bn::base
