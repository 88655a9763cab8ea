#include "bn/base/interruption.h"

#include <atomic>
#include <string>
#include <utility>

namespace bn::base {
namespace {

// Lock-free, so that a signal handler may set it.
std::atomic<bool> g_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

StepListener& listener() {
  static StepListener l;
  return l;
}

// The operation every step counts as, if one is declared (searches run on one thread).
const StepsCountAs* g_counting_as = nullptr;

}  // namespace

StepsCountAs::StepsCountAs(std::string_view what_, std::size_t done_, std::size_t total_)
    : what(what_), done(done_), total(total_), installed_(g_counting_as == nullptr) {
  if (installed_) g_counting_as = this;
}

StepsCountAs::~StepsCountAs() {
  if (installed_) g_counting_as = nullptr;
}

void request_interruption() noexcept { g_requested.store(true, std::memory_order_relaxed); }

void clear_interruption() noexcept { g_requested.store(false, std::memory_order_relaxed); }

void set_step_listener(StepListener l) { listener() = std::move(l); }

void step(std::string_view what, std::size_t done, std::size_t total) {
  if (g_counting_as != nullptr) {
    what = g_counting_as->what;
    done = g_counting_as->done;
    total = g_counting_as->total;
  }
  if (const StepListener& l = listener()) l(what, done, total);
  if (g_requested.load(std::memory_order_relaxed)) {
    g_requested.store(false, std::memory_order_relaxed);
    throw Interrupted("interrupted: " + std::string(what) + " stopped after " + std::to_string(done) +
                      (total != 0 ? " of " + std::to_string(total) : std::string()) + " steps");
  }
}

}  // namespace bn::base
