// The progress line of a long read (cli/progress_line.h): silent for the first second, then the
// bytes so far, their share and the rate, redrawn in place and erased at the end; several reads
// at once under one line, their bytes summed against their sizes known beforehand.

#include "progress_line.h"

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using bn::cli::CombinedProgress;
using bn::cli::ProgressLine;
using namespace std::chrono_literals;

namespace {

// A clock the test moves.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  ProgressLine::Clock clock() {
    return [this] { return now; };
  }
};

// What the terminal shows last: the text after the last carriage return but one (the line is
// drawn as "\rTEXT").
std::string last_drawn(const std::string& out) {
  const std::size_t at = out.rfind('\r');
  return at == std::string::npos ? out : out.substr(at + 1);
}

}  // namespace

TEST_CASE("a read shorter than a second draws nothing; a longer one its bytes, share and rate") {
  FakeClock t;
  std::ostringstream out;
  {
    ProgressLine line("reading big.jfr", out, true, t.clock());
    line.update(512, 4096);
    CHECK(out.str().empty());
    t.now += 2s;
    line.update(1024, 4096);
    CHECK(last_drawn(out.str()) == "reading big.jfr: 1.0 KiB of 4.0 KiB (25%), 512 B/s");
  }
  CHECK(last_drawn(out.str()).find_first_not_of(' ') == std::string::npos);  // erased
}

TEST_CASE("several reads under one line: their bytes summed against all their sizes") {
  FakeClock t;
  std::ostringstream out;
  {
    CombinedProgress progress(std::make_unique<ProgressLine>("reading 2 profiles", out, true, t.clock()), {2048, 2048});
    const bn::calltree::ProgressFn first = progress.callback(0), second = progress.callback(1);
    REQUIRE(first);
    t.now += 2s;
    first(1024, 2048);
    // The second has not begun: its size counts already, so the total does not grow later.
    CHECK(last_drawn(out.str()) == "reading 2 profiles: 1.0 KiB of 4.0 KiB (25%), 512 B/s");
    t.now += 2s;
    std::thread other([&] { second(2048, 2048); });
    other.join();
    CHECK(last_drawn(out.str()) == "reading 2 profiles: 3.0 KiB of 4.0 KiB (75%), 768 B/s");
  }
  CHECK(last_drawn(out.str()).find_first_not_of(' ') == std::string::npos);
}

TEST_CASE("a line that is not drawn hands out no callbacks, so readers skip the calls") {
  std::ostringstream out;
  CombinedProgress progress(std::make_unique<ProgressLine>("reading 2 profiles", out, false), {1, 1});
  CHECK_FALSE(progress.callback(0));
  CHECK(out.str().empty());
}
