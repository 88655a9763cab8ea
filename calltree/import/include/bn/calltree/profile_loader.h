#pragma once
// Opens any profile the tool reads, recognised by content rather than extension: the native
// format (profile_reader.h), JFR (jfr.h), pprof (pprof.h) or collapsed stacks (collapsed.h),
// each plain, gzip or zstd where the format allows it (docs/formats.md).

#include <filesystem>
#include <string>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/import_options.h"
#include "bn/calltree/profile_reader.h"

namespace bn::calltree {

struct OpenOptions {
  // Load the complete chunks of a profile whose recording was cut off (e.g. SIGKILL).
  bool accept_unfinished = false;
  // How imports of other tools' formats read names, values and threads.
  ImportOptions import;
};

struct OpenedProfile {
  LoadedProfile loaded;  // the tree, plus unfinished/warning/ancillary chunks for native files
  std::string format;    // "native", "jfr", "pprof" or "collapsed"
};

// Throws bn::Error naming the file when it cannot be opened or parsed, or when a sample type is
// asked of a format that has only one value (native, collapsed).
OpenedProfile open_profile(const std::filesystem::path& path, const OpenOptions& options = {});

}  // namespace bn::calltree
