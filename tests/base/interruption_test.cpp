// The steps of a long search (bn/base/interruption.h): told to the listener as they come, and
// stopped by an interruption asked for before or during the search, once; a request forgotten
// before the next command does not stop it.

#include "bn/base/interruption.h"

#include <doctest/doctest.h>

#include <csignal>
#include <string>
#include <vector>

namespace base = bn::base;

namespace {

// Steps `what` from 0 to `count` - 1, returning how many were taken before an interruption.
std::size_t run_steps(std::size_t count, std::size_t interrupt_at = static_cast<std::size_t>(-1)) {
  std::size_t taken = 0;
  try {
    for (std::size_t i = 0; i < count; ++i) {
      if (i == interrupt_at) base::request_interruption();
      base::step("zooming", i, count);
      ++taken;
    }
  } catch (const base::Interrupted& e) {
    CHECK(std::string(e.what()) == "interrupted: zooming stopped after " + std::to_string(interrupt_at) + " of " +
                                       std::to_string(count) + " steps");
  }
  return taken;
}

}  // namespace

TEST_CASE("steps go on until an interruption is asked for, then stop at the next step, once") {
  base::clear_interruption();
  CHECK(run_steps(100) == 100);
  CHECK(run_steps(100, 37) == 37);
  // The request was used up: the next search runs to its end.
  CHECK(run_steps(100) == 100);
}

TEST_CASE("a request made between commands is forgotten when the next begins") {
  base::request_interruption();
  base::clear_interruption();
  CHECK(run_steps(10) == 10);
}

TEST_CASE("a SIGINT handler may ask for it") {
  base::clear_interruption();
  const auto previous = std::signal(SIGINT, [](int) { base::request_interruption(); });
  std::raise(SIGINT);
  std::signal(SIGINT, previous);
  CHECK_THROWS_AS(base::step("labels' overlaps", 3), base::Interrupted);
}

TEST_CASE("the listener is told of every step as it comes, and none once removed") {
  base::clear_interruption();
  std::vector<std::string> told;
  base::set_step_listener([&](std::string_view what, std::size_t done, std::size_t total) {
    told.push_back(std::string(what) + " " + std::to_string(done) + "/" + std::to_string(total));
  });
  base::step("autolabel", 0, 2);
  base::step("autolabel", 1, 2);
  base::step("zooming", 5);
  base::set_step_listener({});
  base::step("zooming", 6);
  CHECK(told == std::vector<std::string>{"autolabel 0/2", "autolabel 1/2", "zooming 5/0"});
}

TEST_CASE("inside an operation declared to count, every step reports as it, and stops as it") {
  base::clear_interruption();
  std::vector<std::string> told;
  base::set_step_listener([&](std::string_view what, std::size_t done, std::size_t total) {
    told.push_back(std::string(what) + " " + std::to_string(done) + "/" + std::to_string(total));
  });
  {
    const base::StepsCountAs round("autolabel", 3, 30);
    base::step("zooming", 7);
    {
      const base::StepsCountAs inner("labels", 1, 2);  // inside another: changes nothing
      base::step("zooming", 8);
    }
    base::request_interruption();
    CHECK_THROWS_WITH_AS(base::step("zooming", 9), "interrupted: autolabel stopped after 3 of 30 steps",
                         base::Interrupted);
  }
  base::step("zooming", 10);  // the declaration has ended
  base::set_step_listener({});
  CHECK(told == std::vector<std::string>{"autolabel 3/30", "autolabel 3/30", "autolabel 3/30", "zooming 10/0"});
}
