#include "progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace bn::cli {
namespace {

using namespace std::chrono_literals;
constexpr auto kQuietFor = 1s;        // an operation shorter than this shows nothing
constexpr auto kRedrawEvery = 100ms;  // at most ten redraws a second

std::string size_text(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return text;
}

}  // namespace

ProgressLine::ProgressLine(std::string label, std::ostream& out, bool enabled, Clock clock)
    : label_(std::move(label)), out_(out), enabled_(enabled), clock_(std::move(clock)), start_(clock_()) {}

std::unique_ptr<ProgressLine> ProgressLine::on_stderr(std::string label) {
  return std::make_unique<ProgressLine>(std::move(label), std::cerr, ::isatty(STDERR_FILENO) == 1);
}

ProgressLine::~ProgressLine() {
  if (drawn_width_ > 0) out_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
}

calltree::ProgressFn ProgressLine::callback() {
  if (!enabled_) return {};  // no callback at all: the reader skips the calls
  return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
}

void ProgressLine::update(std::uint64_t done_bytes, std::uint64_t total_bytes) {
  if (!enabled_) return;
  const auto now = clock_();
  if (now - start_ < kQuietFor || (drawn_width_ > 0 && now - last_draw_ < kRedrawEvery)) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = label_ + ": " + size_text(static_cast<double>(done_bytes));
  if (total_bytes > 0) {
    line += " of " + size_text(static_cast<double>(total_bytes));
    line += " (" + std::to_string(done_bytes * 100 / total_bytes) + "%)";
  }
  line += ", " + size_text(static_cast<double>(done_bytes) / seconds) + "/s";
  // Pad over a longer previous line so no stale characters remain.
  const std::size_t width = line.size();
  if (width < drawn_width_) line.append(drawn_width_ - width, ' ');
  out_ << '\r' << line << std::flush;
  drawn_width_ = std::max(drawn_width_, width);
}

}  // namespace bn::cli
