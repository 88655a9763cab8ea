#include "progress_line.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace bn::cli {
namespace {

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
    : label_(std::move(label)), enabled_(enabled), clock_(std::move(clock)), line_(out, clock_()) {}

std::unique_ptr<ProgressLine> ProgressLine::on_stderr(std::string label) {
  return std::make_unique<ProgressLine>(std::move(label), std::cerr, ::isatty(STDERR_FILENO) == 1);
}

ProgressLine::~ProgressLine() { line_.erase(); }

calltree::ProgressFn ProgressLine::callback() {
  if (!enabled_) return {};  // no callback at all: the reader skips the calls
  return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
}

void ProgressLine::update(std::uint64_t done_bytes, std::uint64_t total_bytes) {
  if (!enabled_) return;
  const auto now = clock_();
  if (!line_.due(now)) return;
  const double seconds = std::chrono::duration<double>(now - line_.start()).count();
  std::string line = label_ + ": " + size_text(static_cast<double>(done_bytes));
  if (total_bytes > 0) {
    line += " of " + size_text(static_cast<double>(total_bytes));
    line += " (" + std::to_string(done_bytes * 100 / total_bytes) + "%)";
  }
  line_.draw(line + ", " + size_text(static_cast<double>(done_bytes) / seconds) + "/s", now);
}

calltree::ProgressFn CombinedProgress::callback(std::size_t i) {
  if (!line_->callback()) return {};
  return [this, i](std::uint64_t done, std::uint64_t total) {
    const std::lock_guard guard(lock_);
    done_[i] = done;
    if (total > 0) total_[i] = total;
    std::uint64_t all_done = 0, all_total = 0;
    for (std::size_t k = 0; k < done_.size(); ++k) {
      all_done += done_[k];
      all_total += total_[k];
    }
    line_->update(all_done, all_total);
  };
}

}  // namespace bn::cli
