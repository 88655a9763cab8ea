// percent_string and decimal_string format 64-bit amounts with fixed-width integers; larger ones
// go through exact rationals. Scaling numerator and denominator by 2^63 keeps the value and
// forces the rational path, so the two paths must print the same text.

#include <doctest/doctest.h>

#include <cstdint>
#include <random>

#include "bn/iface/amount.h"

using namespace bn::iface;

namespace {

constexpr Amount kForceSlow = Amount{1} << 63;

Amount random_amount(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return static_cast<Amount>(rng() % 21) - 10;
    case 1:
      return static_cast<Amount>(rng() % 2001) - 1000;
    case 2:
      return static_cast<Amount>(rng() >> 2) - (Amount{1} << 61);
    default:
      return static_cast<Amount>(rng() % 1'000'000'007);
  }
}

}  // namespace

TEST_CASE("percentages of 64-bit amounts match the exact rational formatting") {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20'000; ++i) {
    const Amount whole = random_amount(rng);
    if (whole == 0) continue;
    // Every third part sits on or next to a rounding half (k/200 of whole, +-1).
    Amount part = random_amount(rng);
    if (i % 3 == 0) part = whole * static_cast<Amount>(rng() % 401) / 200 + static_cast<Amount>(rng() % 3) - 1;
    const int digits = static_cast<int>(rng() % 4);
    CAPTURE(static_cast<long long>(part));
    CAPTURE(static_cast<long long>(whole));
    CAPTURE(digits);
    REQUIRE(percent_string(part, whole, digits) == percent_string(part * kForceSlow, whole * kForceSlow, digits));
  }
  CHECK(percent_string(1, 200, 0) == "1%");  // 0.5% rounds away from zero
  CHECK(percent_string(-1, 200, 0) == "-1%");
  CHECK(percent_string(-1, 1000, 1) == "-0.1%");
  CHECK(percent_string(-1, 100000, 1) == "0.0%");  // rounds to zero: no sign
  CHECK(percent_string(1, -3, 8) == "-33.33333333%");
}

TEST_CASE("decimals of 64-bit amounts match the exact rational formatting") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20'000; ++i) {
    const Amount denominator = i % 2 == 0 ? static_cast<Amount>(rng() % 12) - 6 : random_amount(rng);
    if (denominator == 0) continue;
    // Multiples (integral values) while they stay below 2^63, so that times 2^63 fits.
    const bool multiple = i % 5 == 0 && denominator < (Amount{1} << 50) && denominator > -(Amount{1} << 50);
    const Amount numerator = multiple ? denominator * (static_cast<Amount>(rng() % 1000) - 500) : random_amount(rng);
    CAPTURE(static_cast<long long>(numerator));
    CAPTURE(static_cast<long long>(denominator));
    REQUIRE(decimal_string(numerator, denominator) == decimal_string(numerator * kForceSlow, denominator * kForceSlow));
  }
}
