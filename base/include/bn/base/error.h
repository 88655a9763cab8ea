#pragma once
// The one error type of the project: a single line a user can act on, with its context
// ("cannot open profile 'x': truncated string table at byte 812"). Readers and commands throw
// it; the command-line front end prints it and exits non-zero. Nothing else is caught.

#include <stdexcept>
#include <string>

namespace bn {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace bn
