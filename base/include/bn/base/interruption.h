#pragma once
// A long search stops when the user asks (Ctrl-C at the REPL) and says how far it has come.
// Searches call step() between their steps (a zoom's step and every few thousand candidates of
// one, a round of autolabel's starting points, a few thousand summaries of a label file being
// loaded), where nothing is half made: an interrupted command leaves the session as it was, its
// labels and the profile's caches included.
// Libraries never print: a front end listens to the steps and draws (docs/architecture.md).

#include <cstddef>
#include <functional>
#include <string_view>

#include "bn/base/error.h"

namespace bn::base {

// Thrown by step() once an interruption is asked for.
class Interrupted : public Error {
 public:
  using Error::Error;
};

// Asks the running search to stop at its next step. Async-signal-safe: a SIGINT handler calls it.
void request_interruption() noexcept;
// Forgets a request: a front end calls it before each command, so that a Ctrl-C typed at the
// prompt does not stop the next command.
void clear_interruption() noexcept;

// Told of each step: what the operation is ("zooming"), the steps done, of how many (0: not
// known in advance). Called on the searching thread, often: it must return quickly.
using StepListener = std::function<void(std::string_view what, std::size_t done, std::size_t total)>;
// The listener for every later step (none: an empty function). Set between commands only.
void set_step_listener(StepListener listener);

// Between two steps of a long operation: `done` steps of `what` are done, of `total` (0 if not
// known). Tells the listener, then throws Interrupted if an interruption was asked for.
void step(std::string_view what, std::size_t done, std::size_t total = 0);

// While it lives, every step() reports as step `done` of `what` instead: the parts of an
// operation (autolabel's zooms) step as often as they need, and the user sees, and stops, the
// operation. The outermost one counts: one made inside another changes nothing.
class StepsCountAs {
 public:
  StepsCountAs(std::string_view what, std::size_t done, std::size_t total);
  ~StepsCountAs();
  StepsCountAs(const StepsCountAs&) = delete;
  StepsCountAs& operator=(const StepsCountAs&) = delete;

  const std::string_view what;
  const std::size_t done, total;

 private:
  const bool installed_;
};

}  // namespace bn::base
