// How long `record --pid` lets a recording take to end by itself before asking the agent to stop.

#include "record/record_deadline.h"

#include <doctest/doctest.h>

using bn::cli::duration_seconds;
using bn::cli::own_end_within;
using std::chrono::seconds;

TEST_CASE("an agent duration in seconds, every unit the agent takes") {
  CHECK(duration_seconds("") == 0);
  CHECK(duration_seconds("30s") == 30);
  CHECK(duration_seconds("1.5s") == 1.5);
  CHECK(duration_seconds("500ms") == doctest::Approx(0.5));
  CHECK(duration_seconds("1.5m") == 90);
  CHECK(duration_seconds("2h") == 7200);
  CHECK(duration_seconds("250us") >= 0.00025);  // over, never under: it bounds a wait
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
