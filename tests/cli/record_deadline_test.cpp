// How long `record --pid` lets a recording take to end by itself before asking the agent to stop.

#include "record/record_deadline.h"

#include <doctest/doctest.h>

using bn::cli::own_end_within;
using std::chrono::seconds;

TEST_CASE("durations are read as the agent reads them, every unit it takes") {
  CHECK(own_end_within("", "", "1.5m") == seconds(150));
  CHECK(own_end_within("", "", "2h") == seconds(7260));
  CHECK(own_end_within("", "1500ms", "250us") == seconds(61));
  // A value the agent refuses is refused before anything starts (agent_flags.h); no bound here.
  CHECK_FALSE(own_end_within("", "", "30").has_value());
}

TEST_CASE("a sampling recording may take its delay, its duration and a minute") {
  CHECK(own_end_within("", "", "30s") == seconds(90));
  CHECK(own_end_within("sample", "", "500ms") == seconds(60));
  // The delay counts: --delay 2m --duration 10s once gave up after 70 s, a minute before the end.
  CHECK(own_end_within("", "2m", "10s") == seconds(190));
}

TEST_CASE("no bound without --duration, nor for the call-tree mode's duration from its first call") {
  CHECK_FALSE(own_end_within("", "", "").has_value());
  CHECK_FALSE(own_end_within("sample", "5s", "").has_value());
  CHECK_FALSE(own_end_within("calltree", "", "30s").has_value());
}
