// Normalisation is exact: parsed factors are rationals and side denominators combine into one
// common denominator without rounding; overflow of the 128-bit Amount is refused, not wrapped.

#include "bn/comparative/normalization.h"

#include <doctest/doctest.h>

#include <vector>

#include "bn/base/error.h"

using bn::comparative::Normalization;
using bn::comparative::parse_scale_factor;
using bn::comparative::RunFacts;
using bn::comparative::Scaling;
using bn::iface::Rational;

namespace {

// One run of a side: its denominator and total.
std::vector<RunFacts> one_run(bn::iface::Amount denominator, bn::iface::Amount total) { return {{denominator, total}}; }
// One value of one run.
std::vector<bn::iface::Amount> amounts(bn::iface::Amount value) { return {value}; }

}  // namespace

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
  const Scaling s({Normalization::Kind::scale, Rational(2, 5)}, one_run(3, 0), one_run(4, 0));
  CHECK(s.denominator() == 60);
  CHECK(s.difference(amounts(1), amounts(1)) == 14);
  CHECK(s.scale_a(3) == 60);
  CHECK(s.scale_b(4) == 24);
}

TEST_CASE("total normalisation uses the exact ratio of totals") {
  const Scaling s({Normalization::Kind::total, 1}, one_run(1, 100), one_run(1, 158));
  CHECK(s.factor() == Rational(50, 79));
  CHECK(s.difference(amounts(100), amounts(158)) == 0);
  CHECK(s.describe() == "total (B × 50/79)");
  CHECK_THROWS_AS(Scaling({Normalization::Kind::total, 1}, one_run(1, 100), one_run(1, 0)), bn::Error);
}

TEST_CASE("amounts that overflow 128 bits after scaling are refused") {
  // k = 10^29 (30 digits, the longest factor --scale accepts); Amount holds up to ~1.7·10^38.
  const Scaling big({Normalization::Kind::scale, parse_scale_factor("100000000000000000000000000000")}, one_run(1, 0),
                    one_run(1, 0));
  const bn::iface::Amount e15 = 1000000000000000LL;
  CHECK(big.scale_b(1000) == e15 * e15 * 100);             // 10^32
  CHECK_THROWS_AS(big.scale_b(10000000000LL), bn::Error);  // 10^39
  CHECK_THROWS_AS(big.difference(amounts(0), amounts(10000000000LL)), bn::Error);
  Rational huge = 1;
  for (int i = 0; i < 40; ++i) huge *= 10;
  CHECK_THROWS_AS(Scaling({Normalization::Kind::scale, huge}, one_run(1, 0), one_run(1, 0)), bn::Error);
}

TEST_CASE("a side of several runs is their exact mean: the sum over n, over one denominator") {
  // A: runs of 1/3 and 1/2 (denominators 3 and 2), mean (1/3 + 1/2)/2 = 5/12. B: three runs in
  // quarters, 1/4, 0, 2/4, mean 1/4, weighed by k = 2: 5/12 - 1/2 = -1/12.
  const RunFacts a[] = {{3, 0}, {2, 0}};
  const RunFacts b[] = {{4, 0}, {4, 0}, {4, 0}};
  const Scaling s({Normalization::Kind::scale, 2}, a, b);
  CHECK(s.a_runs() == 2);
  CHECK(s.b_runs() == 3);
  const bn::iface::Amount a_values[] = {1, 1}, b_values[] = {1, 0, 2};
  const bn::iface::Amount d = s.difference(a_values, b_values);
  CHECK(bn::iface::to_rational(d, s.denominator()) == Rational(-1, 12));
  // Each run's share: run 1 of A (1/2) is half of it in the mean.
  CHECK(bn::iface::to_rational(s.scale_a(1, 1), s.denominator()) == Rational(1, 4));
  CHECK(bn::iface::to_rational(s.scale_b(2, 2), s.denominator()) == Rational(2 * 2, 4 * 3));
}

TEST_CASE("total normalisation of several runs weighs B's mean to A's mean total") {
  // A's mean total (100 + 101)/2 = 201/2; B's (150 + 152)/2 = 151: k = 201/302.
  const RunFacts a[] = {{1, 100}, {1, 101}};
  const RunFacts b[] = {{1, 150}, {1, 152}};
  const Scaling s({Normalization::Kind::total, 1}, a, b);
  CHECK(s.factor() == Rational(201, 302));
  const bn::iface::Amount a_totals[] = {100, 101}, b_totals[] = {150, 152};
  CHECK(s.difference(a_totals, b_totals) == 0);
  const RunFacts empty[] = {{1, 0}, {1, 0}};
  CHECK_THROWS_AS(Scaling({Normalization::Kind::total, 1}, a, empty), bn::Error);
  CHECK_THROWS_AS(Scaling({Normalization::Kind::none, 1}, a, std::span<const RunFacts>{}), bn::Error);
}
