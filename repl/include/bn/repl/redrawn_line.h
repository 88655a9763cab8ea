#pragma once
// One line of progress redrawn in place on a terminal, for anything long: nothing for its first
// second (quick commands, and so tests, see nothing), at most ten redraws a second, each padded
// over a longer line before it, erased before other output. The REPL's search steps
// (step_progress.h) and the command-line tool's reads and writes draw through it.

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace bn::repl {

class RedrawnLine {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RedrawnLine(std::ostream& out, Clock::time_point start = Clock::now()) : out_(out), start_(start) {}
  // Erases the line and counts the quiet second again from `now`.
  void restart(Clock::time_point now);
  // Whether a line given now would be drawn: callers make its text only then.
  bool due(Clock::time_point now) const;
  // Draws `line` in place of the one on screen if due(now).
  void draw(std::string line, Clock::time_point now);
  // Erases the line if one is drawn.
  void erase();
  Clock::time_point start() const { return start_; }

 private:
  std::ostream& out_;
  Clock::time_point start_, last_draw_;
  std::size_t drawn_width_ = 0;  // columns of the line on screen, 0 = nothing drawn
};

}  // namespace bn::repl
