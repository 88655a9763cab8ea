#pragma once
// Opens any profile the tool reads, recognised by content rather than extension: the rows of
// profile_formats.h in order (native, JFR, pprof, then collapsed stacks, which takes anything
// else), each plain, gzip or zstd where the format allows it (docs/formats.md).

#include <filesystem>

#include "bn/calltree/profile_formats.h"
#include "bn/calltree/profile_reader.h"

namespace bn::calltree {

struct OpenedProfile {
  LoadedProfile loaded;                   // the tree, plus unfinished/warning/ancillary chunks for native files
  const ProfileFormat* format = nullptr;  // the row that recognised the file; never null once opened
};

// Throws bn::Error naming the file when it cannot be opened or parsed, or when a sample type is
// asked of a format that has only one value (native, collapsed).
OpenedProfile open_profile(const std::filesystem::path& path, const OpenOptions& options = {});

}  // namespace bn::calltree
