#include "bn/comparative/normalization.h"

#include <limits>

#include "bn/iface/error.h"

namespace bn::comparative {
namespace {

using boost::multiprecision::cpp_int;
using iface::Amount;
using iface::Rational;

constexpr std::size_t kMaxDigits = 30;

// Parses "123" or "12.34" exactly; false on anything else (the caller names the bad text).
bool parse_decimal(std::string_view text, Rational& out) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return false;
  if (dot != std::string_view::npos && fraction.empty()) return false;
  if (whole.size() + fraction.size() > kMaxDigits) return false;
  cpp_int numerator = 0;
  cpp_int denominator = 1;
  for (const char c : whole) {
    if (c < '0' || c > '9') return false;
    numerator = numerator * 10 + (c - '0');
  }
  for (const char c : fraction) {
    if (c < '0' || c > '9') return false;
    numerator = numerator * 10 + (c - '0');
    denominator *= 10;
  }
  out = Rational(numerator, denominator);
  return true;
}

Amount to_amount(const cpp_int& value, const char* what) {
  static const cpp_int kMax = [] {
    cpp_int m = 1;
    m <<= 127;
    return cpp_int(m - 1);
  }();
  if (abs(value) > kMax)
    throw Error(std::string("comparative profile: ") + what + " " + value.str() + " does not fit in 128 bits");
  const bool negative = value < 0;
  const cpp_int magnitude = abs(value);
  const auto high = static_cast<std::uint64_t>(magnitude >> 64);
  const auto low = static_cast<std::uint64_t>(magnitude & std::numeric_limits<std::uint64_t>::max());
  const Amount result = static_cast<Amount>((static_cast<unsigned __int128>(high) << 64) | low);
  return negative ? -result : result;
}

cpp_int to_cpp_int(Amount a) { return boost::multiprecision::numerator(iface::to_rational(a)); }

Amount checked_multiply(Amount a, Amount b) {
  Amount product = 0;
  if (__builtin_mul_overflow(a, b, &product))
    throw Error("comparative profile: a scaled cost overflows 128 bits; use a coarser scale factor");
  return product;
}

}  // namespace

Normalization parse_normalize_mode(std::string_view text) {
  if (text == "none") return {};
  if (text == "total") return {Normalization::Kind::total, 1};
  throw Error("unknown normalisation '" + std::string(text) + "' (expected none or total)");
}

Rational parse_scale_factor(std::string_view text) {
  const std::size_t slash = text.find('/');
  Rational numerator;
  Rational denominator = 1;
  bool ok = parse_decimal(text.substr(0, slash), numerator);
  if (ok && slash != std::string_view::npos) ok = parse_decimal(text.substr(slash + 1), denominator);
  if (!ok)
    throw Error("'" + std::string(text) +
                "' is not a decimal or fraction (expected e.g. 2, 0.25 or 1/3, at most 30 digits each)");
  if (numerator == 0 || denominator == 0) throw Error("'" + std::string(text) + "' must be positive and finite");
  return numerator / denominator;
}

Scaling::Scaling(const Normalization& normalization, Amount a_den, Amount b_den, Amount a_total, Amount b_total)
    : kind_(normalization.kind), factor_(normalization.factor) {
  if (a_den <= 0 || b_den <= 0) throw Error("comparative profile: a side reports a non-positive denominator");
  if (kind_ == Normalization::Kind::none) factor_ = 1;
  if (kind_ == Normalization::Kind::total) {
    if (b_total == 0) throw Error("cannot scale B to A's total: profile B's total is 0");
    // (a_total / a_den) / (b_total / b_den)
    factor_ = iface::to_rational(a_total, a_den) / iface::to_rational(b_total, b_den);
  }
  const cpp_int p = boost::multiprecision::numerator(factor_);
  const cpp_int q = boost::multiprecision::denominator(factor_);
  const cpp_int da = to_cpp_int(a_den);
  const cpp_int qdb = q * to_cpp_int(b_den);
  const cpp_int d = da / boost::multiprecision::gcd(da, qdb) * qdb;  // lcm
  denominator_ = to_amount(d, "common denominator");
  a_multiplier_ = to_amount(d / da, "multiplier of A");
  b_multiplier_ = to_amount(p * (d / qdb), "multiplier of B");
}

Amount Scaling::scale_a(Amount a) const { return checked_multiply(a, a_multiplier_); }

Amount Scaling::scale_b(Amount b) const { return checked_multiply(b, b_multiplier_); }

Amount Scaling::difference(Amount a, Amount b) const {
  Amount result = 0;
  if (__builtin_sub_overflow(scale_a(a), scale_b(b), &result))
    throw Error("comparative profile: a difference of scaled costs overflows 128 bits");
  return result;
}

std::string Scaling::describe() const {
  const std::string k =
      boost::multiprecision::numerator(factor_).str() + (boost::multiprecision::denominator(factor_) == 1
                                                             ? std::string{}
                                                             : "/" + boost::multiprecision::denominator(factor_).str());
  switch (kind_) {
    case Normalization::Kind::none:
      return "none";
    case Normalization::Kind::total:
      return "total (B × " + k + ")";
    case Normalization::Kind::scale:
      return "scale (B × " + k + ")";
  }
  return "none";
}

}  // namespace bn::comparative
