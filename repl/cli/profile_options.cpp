#include "profile_options.h"

#include <iostream>

namespace bn::cli {

void add_profile_options(CLI::App& sub, ProfileOptions& options) {
  sub.add_option("PROFILE", options.path,
                 "Profile to read: native (.bnp) or collapsed stacks (plain, .gz, .zst); "
                 "recognised by content")
      ->required();
  sub.add_flag("--partial", options.partial,
               "Accept a native profile whose recording was cut off (e.g. by SIGKILL) and load "
               "its complete chunks");
  sub.add_flag("--signatures", options.keep_signatures,
               "Keep Java method signatures in collapsed-stack frame names (tells overloads apart)");
}

calltree::OpenedProfile open_profile_from(const ProfileOptions& options) {
  calltree::OpenOptions open;
  open.accept_unfinished = options.partial;
  open.collapsed.keep_signatures = options.keep_signatures;
  calltree::OpenedProfile opened = calltree::open_profile(options.path, open);
  if (opened.loaded.unfinished) std::cerr << "bottlenecks: warning: " << opened.loaded.warning << '\n';
  return opened;
}

}  // namespace bn::cli
