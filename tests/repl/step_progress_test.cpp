// The REPL's line for a long search (bn/repl/step_progress.h): nothing in the first second, then
// the steps, their share when their number is known, at most ten redraws a second, erased on
// demand so that the command's output starts on a clean line.

#include "bn/repl/step_progress.h"

#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <string>

using bn::repl::StepProgress;
using namespace std::chrono_literals;

namespace {

// The text after the last carriage return: what the line shows now.
std::string shown(const std::ostringstream& out) {
  const std::string s = out.str();
  const std::size_t at = s.rfind('\r');
  return at == std::string::npos ? s : s.substr(at + 1);
}

}  // namespace

TEST_CASE("a search shorter than a second draws nothing; a longer one its steps, at most ten times a second") {
  std::ostringstream out;
  StepProgress line(out);
  const StepProgress::Clock::time_point t0{};
  line.begin(t0);
  line.on_step("zooming", 500, 0, t0 + 900ms);
  CHECK(out.str().empty());
  line.on_step("zooming", 2345, 0, t0 + 1100ms);
  CHECK(shown(out) == "zooming: 2345 steps (Ctrl-C stops)");
  line.on_step("zooming", 2400, 0, t0 + 1150ms);  // too soon after the last drawing
  CHECK(shown(out) == "zooming: 2345 steps (Ctrl-C stops)");
  line.on_step("labels' overlaps", 120, 2000, t0 + 1300ms);
  CHECK(shown(out).rfind("labels' overlaps: 120 of 2000 (6%) (Ctrl-C stops)", 0) == 0);
  line.erase();
  CHECK(shown(out).find_first_not_of(' ') == std::string::npos);
  // The next command counts its own quiet second.
  const std::size_t before = out.str().size();
  line.begin(t0 + 5s);
  line.on_step("autolabel", 3, 30, t0 + 5500ms);
  CHECK(out.str().size() == before);
}
