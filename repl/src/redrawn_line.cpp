#include "bn/repl/redrawn_line.h"

#include <algorithm>

namespace bn::repl {
namespace {

using namespace std::chrono_literals;
constexpr auto kQuietFor = 1s;        // anything shorter than this shows nothing
constexpr auto kRedrawEvery = 100ms;  // at most ten redraws a second

}  // namespace

void RedrawnLine::restart(Clock::time_point now) {
  erase();
  start_ = now;
}

bool RedrawnLine::due(Clock::time_point now) const {
  return now - start_ >= kQuietFor && (drawn_width_ == 0 || now - last_draw_ >= kRedrawEvery);
}

void RedrawnLine::draw(std::string line, Clock::time_point now) {
  if (!due(now)) return;
  last_draw_ = now;
  const std::size_t width = line.size();
  if (width < drawn_width_) line.append(drawn_width_ - width, ' ');  // no stale characters remain
  out_ << '\r' << line << std::flush;
  drawn_width_ = std::max(drawn_width_, width);
}

void RedrawnLine::erase() {
  if (drawn_width_ == 0) return;
  out_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
  drawn_width_ = 0;
}

}  // namespace bn::repl
