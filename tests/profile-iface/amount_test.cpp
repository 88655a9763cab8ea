#include "bn/iface/amount.h"

#include <doctest/doctest.h>

#include <limits>

using namespace bn::iface;

TEST_CASE("integer amounts print in decimal, including beyond 64 bits and the most negative") {
  CHECK(to_string(0) == "0");
  CHECK(to_string(-1234) == "-1234");
  CHECK(to_string(Amount{1} << 100) == "1267650600228229401496703205376");
  CHECK(to_string(std::numeric_limits<Amount>::min()) == "-170141183460469231731687303715884105728");
  CHECK(to_string(std::numeric_limits<Amount>::max()) == "170141183460469231731687303715884105727");
}

TEST_CASE("exact text is the reduced fraction with the sign in front") {
  CHECK(exact_string(97) == "97");
  CHECK(exact_string(10, 5) == "2");
  CHECK(exact_string(6, 4) == "3/2");
  CHECK(exact_string(-3, 2) == "-3/2");
  CHECK(exact_string(3, -2) == "-3/2");
  CHECK(to_rational(3, 6) == Rational(1, 2));
}

TEST_CASE("decimal text shows integers as they are and rounds fractions half away from zero") {
  CHECK(decimal_string(97, 1) == "97");
  CHECK(decimal_string(194, 2) == "97");
  CHECK(decimal_string(3, 2) == "1.50");
  CHECK(decimal_string(-3, 2) == "-1.50");
  CHECK(decimal_string(1, 3) == "0.33");
  CHECK(decimal_string(2, 3) == "0.67");
  CHECK(decimal_string(-1, 3) == "-0.33");
  CHECK(decimal_string(1, 200) == "0.01");    // 0.005
  CHECK(decimal_string(-1, 200) == "-0.01");  // -0.005
  CHECK(decimal_string(5, 2, 0) == "3");
  CHECK(decimal_string(1, 8, 3) == "0.125");
}

TEST_CASE("percentages are computed exactly and rounded only for display") {
  CHECK(percent_string(97, 100) == "97.0%");
  CHECK(percent_string(1, 3) == "33.3%");
  CHECK(percent_string(2, 3) == "66.7%");
  CHECK(percent_string(-1, 8, 2) == "-12.50%");
  CHECK(percent_string(1, 2000) == "0.1%");  // 0.05% rounds away from zero
  CHECK(percent_string(3, 2, 0) == "150%");
  CHECK(percent_string(5, 0) == "n/a");
  // Numerators near the 128-bit limit do not overflow.
  const Amount big = std::numeric_limits<Amount>::max();
  CHECK(percent_string(big / 2, big) == "50.0%");
}
