#pragma once
// methods=LABELS_FILE (DYPER, seed 001 sec. 3: sampling finds where to look, detailing
// instruments only that): the Java methods named in a label file the REPL saved (docs/repl.md,
// "Label files"), read with the REPL's own reader (bn/base/label_file_format.h). Entries that
// are no Java method (typed-time pseudo-methods such as `:RUN`, `[truncated]`, the gap `..`) are
// skipped; a signature, if the profile kept them, is dropped: every overload is instrumented.

#include <string>
#include <vector>

#include "bn/agent/status.h"

namespace bn::agent {

struct LabelMethods {
  std::vector<std::string> methods;  // `pkg.Class.method`, sorted, each once
  Status status;                     // not ok: `FILE:LINE: what is wrong` (or why it cannot be read)
};

LabelMethods read_label_methods(const std::string& path);

}  // namespace bn::agent
