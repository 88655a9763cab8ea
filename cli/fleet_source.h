#pragma once
// A clickhouse:// URL wherever a profile file is accepted (docs/fleet.md, "Sources"): the slice
// read from the store as one profile, or as several runs with --runs-by.

#include <string>
#include <vector>

#include "bn/calltree/profile_loader.h"

namespace bn::cli {

struct OpenedRunOf {
  calltree::OpenedProfile opened;
  std::string name;
};

// The slice `url` names, split as its runs_by says or as `runs_by` does when not empty (host or
// day). Throws bn::Error naming the URL (never its password).
std::vector<OpenedRunOf> open_fleet_slice(const std::string& url, const std::string& runs_by);

}  // namespace bn::cli
