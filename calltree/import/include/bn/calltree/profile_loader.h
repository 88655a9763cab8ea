#pragma once
// Opens any profile the tool reads, recognised by content rather than extension: the native
// format (profile_reader.h) or collapsed stacks, plain, gzip or zstd (collapsed.h).

#include <filesystem>
#include <string>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/collapsed.h"
#include "bn/calltree/profile_reader.h"

namespace bn::calltree {

struct OpenOptions {
  // Load the complete chunks of a profile whose recording was cut off (e.g. SIGKILL).
  bool accept_unfinished = false;
  CollapsedOptions collapsed;
};

struct OpenedProfile {
  LoadedProfile loaded;  // the tree, plus unfinished/warning/ancillary chunks for native files
  std::string format;    // "native" or "collapsed"
};

// Throws bn::Error naming the file when it cannot be opened or parsed.
OpenedProfile open_profile(const std::filesystem::path& path, const OpenOptions& options = {});

}  // namespace bn::calltree
