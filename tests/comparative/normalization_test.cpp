// Normalisation is exact: parsed factors are rationals and side denominators combine into one
// common denominator without rounding; overflow of the 128-bit Amount is refused, not wrapped.

#include "bn/comparative/normalization.h"

#include <doctest/doctest.h>

#include "bn/iface/error.h"

using bn::comparative::Normalization;
using bn::comparative::parse_scale_factor;
using bn::comparative::Scaling;
using bn::iface::Rational;

TEST_CASE("scale factors parse exactly as decimals and fractions") {
  CHECK(parse_scale_factor("2") == Rational(2));
  CHECK(parse_scale_factor("0.25") == Rational(1, 4));
  CHECK(parse_scale_factor(".5") == Rational(1, 2));
  CHECK(parse_scale_factor("1/3") == Rational(1, 3));
  CHECK(parse_scale_factor("1.5/2") == Rational(3, 4));
  CHECK(parse_scale_factor("0.1") * 10 == Rational(1));
}

TEST_CASE("malformed, zero or negative scale factors are refused with the text named") {
  for (const char* bad :
       {"", "-1", "0", "0/5", "1/0", "1e3", "abc", "1.", "1/2/3", "+2", "1.2.3", "1234567890123456789012345678901"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_scale_factor(bad), bn::Error);
  }
  try {
    parse_scale_factor("x7");
  } catch (const bn::Error& e) {
    CHECK(std::string(e.what()).find("'x7'") != std::string::npos);
  }
}

TEST_CASE("normalize modes are none and total only") {
  CHECK(bn::comparative::parse_normalize_mode("none").kind == Normalization::Kind::none);
  CHECK(bn::comparative::parse_normalize_mode("total").kind == Normalization::Kind::total);
  CHECK_THROWS_AS(bn::comparative::parse_normalize_mode("scale"), bn::Error);
}

TEST_CASE("side denominators and the factor combine into one common denominator") {
  // A in thirds, B in quarters, k = 2/5: 1/3 - (2/5)(1/4) = 7/30 = 14/60.
  const Scaling s({Normalization::Kind::scale, Rational(2, 5)}, 3, 4, 0, 0);
  CHECK(s.denominator() == 60);
  CHECK(s.difference(1, 1) == 14);
  CHECK(s.scale_a(3) == 60);
  CHECK(s.scale_b(4) == 24);
}

TEST_CASE("total normalisation uses the exact ratio of totals") {
  const Scaling s({Normalization::Kind::total, 1}, 1, 1, 100, 158);
  CHECK(s.factor() == Rational(50, 79));
  CHECK(s.difference(100, 158) == 0);
  CHECK(s.describe() == "total (B × 50/79)");
  CHECK_THROWS_AS(Scaling({Normalization::Kind::total, 1}, 1, 1, 100, 0), bn::Error);
}

TEST_CASE("amounts that overflow 128 bits after scaling are refused") {
  // k = 10^29 (30 digits, the longest factor --scale accepts); Amount holds up to ~1.7·10^38.
  const Scaling big({Normalization::Kind::scale, parse_scale_factor("100000000000000000000000000000")}, 1, 1, 0, 0);
  const bn::iface::Amount e15 = 1000000000000000LL;
  CHECK(big.scale_b(1000) == e15 * e15 * 100);             // 10^32
  CHECK_THROWS_AS(big.scale_b(10000000000LL), bn::Error);  // 10^39
  CHECK_THROWS_AS(big.difference(0, 10000000000LL), bn::Error);
  Rational huge = 1;
  for (int i = 0; i < 40; ++i) huge *= 10;
  CHECK_THROWS_AS(Scaling({Normalization::Kind::scale, huge}, 1, 1, 0, 0), bn::Error);
}
