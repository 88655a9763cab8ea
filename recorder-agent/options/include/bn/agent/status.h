#pragma once
// Errors as values. Everything in the agent runs inside the JVM (Agent_OnLoad, a JVMTI callback,
// an agent thread), where an exception would abort the process, so a step that can fail returns
// a Status instead of throwing: ok, or one line saying what failed and why, which the caller
// may extend ("...; the program runs without profiling") and reports. [[nodiscard]], so that a
// failure cannot be dropped silently.

#include <string>
#include <utility>

namespace bn::agent {

class [[nodiscard]] Status {
 public:
  Status() = default;  // ok
  static Status error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  // What failed; empty when ok.
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}

  bool failed_ = false;
  std::string message_;
};

}  // namespace bn::agent
