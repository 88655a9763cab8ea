#include "bn/repl/step_progress.h"

#include <string>

namespace bn::repl {

void StepProgress::begin(Clock::time_point now) { line_.restart(now); }

void StepProgress::on_step(std::string_view what, std::size_t done, std::size_t total, Clock::time_point now) {
  if (!line_.due(now)) return;
  std::string line = std::string(what) + ": " + std::to_string(done);
  line += total != 0 ? " of " + std::to_string(total) + " (" + std::to_string(done * 100 / total) + "%)" : " steps";
  line_.draw(line + " (Ctrl-C stops)", now);
}

void StepProgress::erase() { line_.erase(); }

}  // namespace bn::repl
