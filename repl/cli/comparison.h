#pragma once
// `bottlenecks repl A --base B`: the comparative profile A minus B (seed 004 sec. 2.2) in place
// of the single-tree profile. Options, loading and the header that states what is subtracted
// and how B is normalised live here, so the repl command only chooses which profile to search.

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "bn/comparative/comparative_profile.h"
#include "profile_options.h"

namespace bn::cli {

struct CompareCliOptions {
  std::string base;  // --base: profile B; empty = search one profile
  std::string normalize = "none";
  std::string scale;  // --scale F; empty = not given
  bool force = false;
};

// Registers --base, --normalize, --scale and --force on `sub`.
void add_compare_options(CLI::App& sub, CompareCliOptions& options);

// Profile B, its single-tree profile and A minus B; the trees outlive the profiles over them.
class Comparison {
 public:
  // Loads B with the same loading flags as A (`a`'s path replaced by --base) and builds A − B.
  // Throws bn::Error naming the file or the refused combination.
  Comparison(iface::Profile& a, const ProfileOptions& loading, const CompareCliOptions& options);

  comparative::ComparativeProfile& profile() { return *profile_; }
  // Header lines: what is subtracted, the raw totals, the normalisation, then any notes.
  std::vector<std::string> header(const std::string& a_path);
  // The same facts as one JSON Lines object, command "compare".
  std::string header_json(const std::string& a_path);

 private:
  std::string base_path_;
  iface::Amount a_total_;  // raw totals (before normalisation), for the header
  std::unique_ptr<calltree::CallTree> tree_;
  std::unique_ptr<calltree::TreeProfile> base_;
  std::unique_ptr<comparative::ComparativeProfile> profile_;
};

}  // namespace bn::cli
