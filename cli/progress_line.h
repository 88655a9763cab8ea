#pragma once
// One line on the terminal for a long read or write: "reading big.jfr: 312.5 MiB of 1.2 GiB
// (26%), 85.1 MiB/s", redrawn in place. Shown only when stderr is a terminal and only once the
// operation has run for a second, so quick commands, pipes, scripts and tests see nothing;
// erased when the operation ends. The import and export libraries only report bytes
// (import_options.h); drawing is the command-line tool's job.

#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "bn/calltree/import_options.h"

namespace bn::cli {

class ProgressLine {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // `label` is e.g. "reading big.jfr". Draws on `out` only if `enabled`.
  ProgressLine(std::string label, std::ostream& out, bool enabled, Clock clock = std::chrono::steady_clock::now);
  // On stderr, enabled when stderr is a terminal.
  static std::unique_ptr<ProgressLine> on_stderr(std::string label);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  // Erases the line if one was drawn.
  ~ProgressLine();

  // The callback to hand to a reader or writer; valid while this object lives.
  calltree::ProgressFn callback();
  void update(std::uint64_t done_bytes, std::uint64_t total_bytes);

 private:
  std::string label_;
  std::ostream& out_;
  bool enabled_;
  Clock clock_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::size_t drawn_width_ = 0;  // columns of the line on screen, 0 = nothing drawn
};

}  // namespace bn::cli
