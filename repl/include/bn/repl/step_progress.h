#pragma once
// One line on the terminal for a long search at the REPL (the steps of base/interruption.h):
// "zooming: 2345 steps (Ctrl-C stops)" or "refine split: 120 of 2000 (6%) (Ctrl-C stops)",
// drawn as a RedrawnLine from the command's start and erased before it prints anything.

#include <cstddef>
#include <ostream>
#include <string_view>

#include "bn/repl/redrawn_line.h"

namespace bn::repl {

class StepProgress {
 public:
  using Clock = RedrawnLine::Clock;

  explicit StepProgress(std::ostream& out) : line_(out) {}
  // A command starts: the quiet second counts from here.
  void begin(Clock::time_point now = Clock::now());
  void on_step(std::string_view what, std::size_t done, std::size_t total, Clock::time_point now = Clock::now());
  // Erases the line if one is drawn.
  void erase();

 private:
  RedrawnLine line_;
};

}  // namespace bn::repl
