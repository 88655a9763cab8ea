#include "bn/iface/amount.h"

#include <algorithm>

#include "u128.h"

namespace bn::iface {
namespace {

using boost::multiprecision::cpp_int;
using detail::magnitude_of;
using detail::U128;
using detail::u128_string;

// Amounts below this (every 64-bit cost and sum) take the fixed-width paths below: the REPL
// prints two percentages per row for up to 10^5 rows, and big-integer rationals made that the
// largest cost of `path` on a 10M-node profile (docs/performance.md, "Interactive scale").
constexpr U128 kSmall = U128{1} << 63;
constexpr int kMaxFastDigits = 8;

cpp_int to_cpp_int(Amount a) {
  const cpp_int result = detail::to_cpp_int(magnitude_of(a));
  return a < 0 ? cpp_int(-result) : result;
}

// Rounds r to the nearest integer, halves away from zero.
cpp_int round_half_away(const Rational& r) {
  const cpp_int num = boost::multiprecision::numerator(r);
  const cpp_int den = boost::multiprecision::denominator(r);  // positive
  cpp_int twice = num * 2;
  cpp_int q = (abs(twice) + den) / (den * 2);
  return num < 0 ? cpp_int(-q) : q;
}

// `text` (the decimal digits of |value| * 10^digits, rounded) with the point put back.
std::string with_point(bool negative, std::string text, int digits) {
  if (digits > 0) {
    if (text.size() <= static_cast<std::size_t>(digits))
      text.insert(0, static_cast<std::size_t>(digits) + 1 - text.size(), '0');
    text.insert(text.size() - static_cast<std::size_t>(digits), ".");
  }
  return (negative ? "-" : "") + text;
}

std::string fixed_point(const Rational& value, int digits) {
  cpp_int scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  const cpp_int scaled = round_half_away(value * scale);
  return with_point(scaled < 0, cpp_int(abs(scaled)).str(), digits);
}

}  // namespace

Rational to_rational(Amount numerator, Amount denominator) {
  cpp_int num = to_cpp_int(numerator), den = to_cpp_int(denominator);
  // Boost's rational refuses a negative denominator; comparative totals (A - B) can be one.
  if (den < 0) {
    num = -num;
    den = -den;
  }
  return Rational(num, den);
}

std::string to_string(Amount a) { return (a < 0 ? "-" : "") + u128_string(magnitude_of(a)); }

std::string exact_string(Amount numerator, Amount denominator) {
  const Rational r = to_rational(numerator, denominator);
  if (boost::multiprecision::denominator(r) == 1) return boost::multiprecision::numerator(r).str();
  return boost::multiprecision::numerator(r).str() + "/" + boost::multiprecision::denominator(r).str();
}

std::string decimal_string(Amount numerator, Amount denominator, int digits) {
  // Integral values (every single-profile cost) print as integers without a rational.
  if (denominator != 0 && magnitude_of(numerator) < kSmall && magnitude_of(denominator) < kSmall &&
      numerator % denominator == 0)
    return to_string(numerator / denominator);
  const Rational r = to_rational(numerator, denominator);
  if (boost::multiprecision::denominator(r) == 1) return boost::multiprecision::numerator(r).str();
  return fixed_point(r, digits);
}

std::string percent_string(Amount part, Amount whole, int digits) {
  if (whole == 0) return "n/a";
  const U128 part_magnitude = magnitude_of(part), whole_magnitude = magnitude_of(whole);
  if (part_magnitude < kSmall && whole_magnitude < kSmall && digits >= 0 && digits <= kMaxFastDigits) {
    U128 scale = 100;
    for (int i = 0; i < digits; ++i) scale *= 10;
    // Rounds |part| * scale / |whole| half away from zero, as round_half_away does; < 2^100.
    const U128 q = (2 * part_magnitude * scale + whole_magnitude) / (2 * whole_magnitude);
    return with_point(q != 0 && (part < 0) != (whole < 0), u128_string(q), digits) + "%";
  }
  return fixed_point(to_rational(part, whole) * 100, digits) + "%";
}

}  // namespace bn::iface
