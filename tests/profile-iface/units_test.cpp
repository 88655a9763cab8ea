#include "bn/iface/units.h"

#include <doctest/doctest.h>

#include <limits>

using namespace bn::iface;

namespace {
constexpr Amount kMs = 1'000'000, kS = 1'000'000'000;
}  // namespace

TEST_CASE("a duration takes the largest unit in which it rounds to at least 1, to three digits") {
  CHECK(duration_text(0, 1) == "0 s");
  CHECK(duration_text(1, 1) == "1 ns");
  CHECK(duration_text(999, 1) == "999 ns");
  CHECK(duration_text(1'000, 1) == "1.00 µs");
  CHECK(duration_text(12'345, 1) == "12.3 µs");
  CHECK(duration_text(12'345'678, 1) == "12.3 ms");
  CHECK(duration_text(6'142'746'740, 1) == "6.14 s");
  CHECK(duration_text(90 * kS, 1) == "90.0 s");
  CHECK(duration_text(150 * kS, 1) == "2.50 min");
  CHECK(duration_text(3'600 * kS, 1) == "60.0 min");
  CHECK(duration_text(6'000 * kS, 1) == "1.67 h");
  CHECK(duration_text(kS * 3'600 * 1'234'567, 1) == "1230000 h");
  CHECK(duration_text(-12'345'678, 1) == "-12.3 ms");
  CHECK(duration_text(12'345'678, -1) == "-12.3 ms");
  CHECK(duration_text(1, 0) == "n/a");
}

TEST_CASE("rounding halves away from zero, and a value that rounds up to 1000 moves to the next unit") {
  CHECK(duration_text(999'499'999, 1) == "999 ms");
  CHECK(duration_text(999'500'000, 1) == "1.00 s");  // not "1000 ms"
  CHECK(duration_text(-999'500'000, 1) == "-1.00 s");
  CHECK(duration_text(999'499, 1) == "999 µs");
  CHECK(duration_text(999'500, 1) == "1.00 ms");
  CHECK(duration_text(1'995'000, 1) == "2.00 ms");
  CHECK(duration_text(1'994'999, 1) == "1.99 ms");
  // Minutes and hours start at 100 of the unit below: seconds keep three digits up to 99.9 s.
  CHECK(duration_text(60'469'348'886, 1) == "60.5 s");
  CHECK(duration_text(99'949 * kMs, 1) == "99.9 s");
  CHECK(duration_text(99'950 * kMs, 1) == "1.67 min");  // "100 s" by three digits: minutes
  CHECK(duration_text(5'996 * kS, 1) == "99.9 min");
  CHECK(duration_text(5'997 * kS, 1) == "1.67 h");  // 99.95 min
  // Below a microsecond a fraction of a nanosecond keeps three digits.
  CHECK(duration_text(1, 2) == "0.500 ns");
  CHECK(duration_text(1'999, 2) == "1.00 µs");  // 999.5 ns
  CHECK(duration_text(1'997, 2) == "999 ns");   // 998.5 ns rounds away from zero
}

TEST_CASE("durations are exact for any denominator, in 128 bits and beyond") {
  // 2/3 s over a typed-time denominator.
  CHECK(duration_text(2 * kS, 3) == "667 ms");
  const Amount big = Amount{1} << 100;
  CHECK(duration_text(big, big / kS) == "1.00 s");
  CHECK(duration_text(std::numeric_limits<Amount>::max(), 1).ends_with(" h"));
  CHECK(duration_text(std::numeric_limits<Amount>::min(), 1).starts_with("-"));
  CHECK(duration_text(1, std::numeric_limits<Amount>::max()) == "0.00000000000000000000000000000000000000588 ns");
}

TEST_CASE("a count is the integer it is; a fraction keeps three digits, or the nearest integer from 100") {
  CHECK(count_text(97, 1) == "97");
  CHECK(count_text(194, 2) == "97");
  CHECK(count_text(60'469'348'886, 1) == "60469348886");
  CHECK(count_text(-3, 1) == "-3");
  CHECK(count_text(0, 5) == "0");
  CHECK(count_text(7, 10) == "0.700");
  CHECK(count_text(29, 3) == "9.67");
  CHECK(count_text(134, 3) == "44.7");
  CHECK(count_text(-1, 2) == "-0.500");
  CHECK(count_text(1, 200) == "0.00500");
  CHECK(count_text(1'999, 20) == "100");  // 99.95: three digits round it to 100
  CHECK(count_text(24'691, 2) == "12346");
  CHECK(count_text(-24'691, 2) == "-12346");
  CHECK(count_text(24'689, 2) == "12345");  // 12344.5
}

TEST_CASE("a rate has three significant digits") {
  CHECK(rate_text(7, 10) == "0.700");
  CHECK(rate_text(1, 1) == "1.00");
  CHECK(rate_text(0, 3) == "0");
  CHECK(rate_text(-944682275611608779, 4229421927726096930) == "-0.223");
  CHECK(rate_text(1'234'567, 1) == "1230000");
  CHECK(rate_text(2, 3) == "0.667");
}

TEST_CASE("bytes are exact below a KiB and binary multiples with three digits above") {
  CHECK(bytes_text(512, 1) == "512 B");
  CHECK(bytes_text(1'023, 1) == "1023 B");
  CHECK(bytes_text(1'024, 1) == "1.00 KiB");
  CHECK(bytes_text(1'536, 1) == "1.50 KiB");
  CHECK(bytes_text(Amount{3} << 30, 1) == "3.00 GiB");
  CHECK(bytes_text(Amount{5} << 60, 1) == "5120 PiB");
}

TEST_CASE("a metric's unit decides how its amounts print") {
  CHECK(display_unit("time", "ns").kind == UnitKind::duration);
  CHECK(display_unit("cpu", "nanoseconds").kind == UnitKind::duration);
  CHECK(display_unit("wall", "ms").scale == 1'000'000);
  CHECK(display_unit("cpu", "CPUs").kind == UnitKind::rate);
  CHECK(display_unit("thread-time", "lifetime").kind == UnitKind::rate);
  CHECK(display_unit("samples", "samples").name == "samples");
  CHECK(display_unit("calls", "count").name == "calls");
  CHECK(display_unit("alloc_space", "bytes").kind == UnitKind::bytes);

  const DisplayUnit ns = display_unit("time", "ns"), cpus = display_unit("cpu", "CPUs"),
                    samples = display_unit("samples", "samples"), ms = display_unit("wall", "ms");
  CHECK(amount_text(60'469'348'886, 1, ns) == "60.5 s");
  CHECK(amount_text(6'142'746'740, 8'775'352'486, cpus) == "0.700 CPUs");
  CHECK(amount_text(97, 1, samples) == "97 samples");
  CHECK(amount_text(1'500, 1, ms) == "1.50 s");
  // A table's header names a count's or a rate's unit once; a duration's changes from row to row.
  CHECK(cell_text(97, 1, samples) == "97");
  CHECK(cell_text(7, 10, cpus) == "0.700");
  CHECK(cell_text(12'345'678, 1, ns) == "12.3 ms");
  CHECK(unit_in_header(samples));
  CHECK(!unit_in_header(ns));
  CHECK(!unit_in_header(display_unit("", "")));
}

TEST_CASE("the exact text of an amount is its reduced fraction in the metric's own unit") {
  CHECK(exact_text(60'469'348'886, 1, display_unit("cpu-time", "ns")) == "60469348886 ns");
  CHECK(exact_text(194, 2, display_unit("samples", "samples")) == "97 samples");
  CHECK(exact_text(-6, 4, display_unit("cpu", "CPUs")) == "-3/2 CPUs");
  CHECK(exact_text(5, 1, display_unit("", "")) == "5");
}
