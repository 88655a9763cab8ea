#include "bn/search/parse.h"

#include <charconv>
#include <string>

#include "bn/base/error.h"

namespace bn::search {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

std::int64_t parse_whole(std::string_view text, std::int64_t lo, std::int64_t hi, std::string_view what) {
  const std::string range =
      hi == INT64_MAX ? std::to_string(lo) + " or more" : std::to_string(lo) + "-" + std::to_string(hi);
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < lo || value > hi)
    throw Error("bad " + std::string(what) + " '" + std::string(text) + "': expected " + range);
  return value;
}

iface::Rational parse_positive_decimal(std::string_view text, std::string_view what) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  const bool ok = (all_digits(whole) || (whole.empty() && !frac.empty())) &&
                  (dot == std::string_view::npos || all_digits(frac)) && text.size() <= 40;
  iface::Rational value = 0;
  if (ok) {
    boost::multiprecision::cpp_int num = 0, den = 1;
    for (char c : whole) num = num * 10 + (c - '0');
    for (char c : frac) {
      num = num * 10 + (c - '0');
      den *= 10;
    }
    value = iface::Rational(num, den);
  }
  if (!ok || value <= 0)
    throw Error("bad " + std::string(what) + " '" + std::string(text) + "': expected a number > 0, e.g. 0.95");
  return value;
}

std::string rational_text(const iface::Rational& r) {
  using boost::multiprecision::cpp_int;
  cpp_int den = boost::multiprecision::denominator(r);
  int digits = 0;
  cpp_int scale = 1;
  // Terminating decimals have only 2s and 5s in the denominator; 40 digits is plenty for input.
  while (digits < 40 && (boost::multiprecision::numerator(r) * scale) % den != 0) {
    scale *= 10;
    ++digits;
  }
  if ((boost::multiprecision::numerator(r) * scale) % den != 0)
    return boost::multiprecision::numerator(r).str() + "/" + den.str();
  const cpp_int scaled = boost::multiprecision::numerator(r) * scale / den;
  std::string text = cpp_int(abs(scaled)).str();
  if (digits > 0) {
    if (text.size() <= static_cast<std::size_t>(digits))
      text.insert(0, static_cast<std::size_t>(digits) + 1 - text.size(), '0');
    text.insert(text.size() - static_cast<std::size_t>(digits), ".");
  }
  return (scaled < 0 ? "-" : "") + text;
}

}  // namespace bn::search
