#pragma once
// Options every command that reads a profile shares, registered in one place.

#include <CLI/CLI.hpp>
#include <string>

#include "bn/calltree/profile_loader.h"
#include "bn/iface/error.h"

namespace bn::cli {

struct ProfileOptions {
  std::string path;
  bool partial = false;
  bool keep_signatures = false;
  std::string sample_type;
  bool thread_frames = false;
};

// Runs a parse of a library, naming the command-line option whose value it refused:
// "--model: bad model 'fast': ...".
template <class F>
auto parsing_option(const char* option, F&& parse) {
  try {
    return parse();
  } catch (const Error& e) {
    throw Error(std::string(option) + ": " + e.what());
  }
}

// Adds the positional PROFILE and the loading flags to `sub`.
void add_profile_options(CLI::App& sub, ProfileOptions& options);
// Opens the profile, with a progress line on a terminal for a long read.
calltree::OpenedProfile open_profile_from(const ProfileOptions& options);

}  // namespace bn::cli
