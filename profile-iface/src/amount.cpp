#include "bn/iface/amount.h"

#include <algorithm>

namespace bn::iface {
namespace {

using boost::multiprecision::cpp_int;

cpp_int to_cpp_int(Amount a) {
  const bool negative = a < 0;
  // Work on the unsigned magnitude so the most negative value is representable.
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(a) : static_cast<unsigned __int128>(a);
  cpp_int result = static_cast<std::uint64_t>(magnitude >> 64);
  result <<= 64;
  result += static_cast<std::uint64_t>(magnitude);
  return negative ? cpp_int(-result) : result;
}

// Rounds r to the nearest integer, halves away from zero.
cpp_int round_half_away(const Rational& r) {
  const cpp_int num = boost::multiprecision::numerator(r);
  const cpp_int den = boost::multiprecision::denominator(r);  // positive
  cpp_int twice = num * 2;
  cpp_int q = (abs(twice) + den) / (den * 2);
  return num < 0 ? cpp_int(-q) : q;
}

std::string fixed_point(const Rational& value, int digits) {
  cpp_int scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  const cpp_int scaled = round_half_away(value * scale);
  std::string text = cpp_int(abs(scaled)).str();
  if (digits > 0) {
    if (text.size() <= static_cast<std::size_t>(digits))
      text.insert(0, static_cast<std::size_t>(digits) + 1 - text.size(), '0');
    text.insert(text.size() - static_cast<std::size_t>(digits), ".");
  }
  return (scaled < 0 ? "-" : "") + text;
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

std::string to_string(Amount a) { return to_cpp_int(a).str(); }

std::string exact_string(Amount numerator, Amount denominator) {
  const Rational r = to_rational(numerator, denominator);
  if (boost::multiprecision::denominator(r) == 1) return boost::multiprecision::numerator(r).str();
  return boost::multiprecision::numerator(r).str() + "/" + boost::multiprecision::denominator(r).str();
}

std::string decimal_string(Amount numerator, Amount denominator, int digits) {
  const Rational r = to_rational(numerator, denominator);
  if (boost::multiprecision::denominator(r) == 1) return boost::multiprecision::numerator(r).str();
  return fixed_point(r, digits);
}

std::string percent_string(Amount part, Amount whole, int digits) {
  if (whole == 0) return "n/a";
  return fixed_point(to_rational(part, whole) * 100, digits) + "%";
}

}  // namespace bn::iface
