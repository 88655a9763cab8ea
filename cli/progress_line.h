#pragma once
// One line on the terminal for a long read or write: "reading big.jfr: 312.5 MiB of 1.2 GiB
// (26%), 85.1 MiB/s", a RedrawnLine (repl/redrawn_line.h) shown only when stderr is a terminal,
// so pipes and scripts see nothing; erased when the operation ends. The import and export libraries only report bytes
// (import_options.h); drawing is the command-line tool's job.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "bn/calltree/import_options.h"
#include "bn/repl/redrawn_line.h"

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
  bool enabled_;
  Clock clock_;
  repl::RedrawnLine line_;
};

// One progress line for several reads at once, from any threads: their bytes summed.
class CombinedProgress {
 public:
  // `sizes`: each operation's bytes as far as known before it starts (0 if unknown), so that the
  // line's total does not grow as operations begin.
  CombinedProgress(std::unique_ptr<ProgressLine> line, std::vector<std::uint64_t> sizes)
      : line_(std::move(line)), done_(sizes.size(), 0), total_(std::move(sizes)) {}
  // The callback for operation `i` (< operations); empty when the line is not drawn.
  calltree::ProgressFn callback(std::size_t i);

 private:
  std::unique_ptr<ProgressLine> line_;
  std::mutex lock_;
  std::vector<std::uint64_t> done_, total_;
};

}  // namespace bn::cli
