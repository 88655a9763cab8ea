#pragma once
// The one place that opens the profile a user asked to search: a file in any format
// open_profile reads, the view of it to search, and with --base the same view of a second file
// subtracted (A minus B, seed 004 sec. 2.2). Every kind of profile the tool can search is one
// row of the view table in search.cpp; `repl` only asks for a Search and hands its profile to
// the session, which knows nothing but profile-iface.

#include <memory>
#include <string>
#include <vector>

#include "bn/calltree/profile_loader.h"
#include "bn/comparative/comparative_profile.h"
#include "bn/iface/profile.h"
#include "comparison.h"
#include "profile_options.h"

namespace bn::cli {

struct SearchOptions {
  ProfileOptions profile;     // PROFILE and how to load it
  std::string view = "tree";  // a row of the view table
  CompareCliOptions compare;  // --base: search A minus B
};

class Search {
 public:
  // Loads PROFILE (and BASE), builds the view and the comparison. Throws bn::Error naming the
  // file, the view or the refused combination.
  explicit Search(const SearchOptions& options);
  ~Search();

  iface::Profile& profile();
  // Format of PROFILE as open_profile recognised it ("native", "collapsed").
  const std::string& format() const;
  // A comparison's header (what is subtracted, the raw totals, the normalisation, any notes),
  // as lines and as one JSON Lines object; no lines and "" for a single profile.
  std::vector<std::string> header() const;
  std::string header_json() const;

 private:
  struct Run;  // one opened file and the view over it

  SearchOptions options_;
  std::unique_ptr<Run> a_, b_;  // b_ only with --base
  std::unique_ptr<comparative::ComparativeProfile> comparison_;
};

}  // namespace bn::cli
