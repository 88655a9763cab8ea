#include "bn/comparative/normalization.h"

#include <limits>

#include "bn/base/error.h"

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

namespace {

// Σ total_i / den_i over n: a side's mean total, exactly.
Rational mean_total(std::span<const RunFacts> runs) {
  Rational sum = 0;
  for (const RunFacts& r : runs) sum += iface::to_rational(r.total, r.denominator);
  return sum / static_cast<long long>(runs.size());
}

}  // namespace

Scaling::Scaling(const Normalization& normalization, std::span<const RunFacts> a, std::span<const RunFacts> b)
    : kind_(normalization.kind), factor_(normalization.factor) {
  if (a.empty() || b.empty()) throw Error("comparative profile: a side has no runs");
  for (const std::span<const RunFacts> side : {a, b})
    for (const RunFacts& r : side)
      if (r.denominator <= 0) throw Error("comparative profile: a run reports a non-positive denominator");
  if (kind_ == Normalization::Kind::none) factor_ = 1;
  if (kind_ == Normalization::Kind::total) {
    const Rational b_mean = mean_total(b);
    if (b_mean == 0) throw Error("cannot scale B to A's total: profile B's total is 0");
    factor_ = mean_total(a) / b_mean;
  }
  const cpp_int p = boost::multiprecision::numerator(factor_);
  const cpp_int q = boost::multiprecision::denominator(factor_);
  // Run i of A weighs 1 / (n_A·den_i), run j of B weighs p / (q·n_B·den_j): the common
  // denominator is the lcm of those denominators.
  const auto run_denominator = [](const RunFacts& r, std::size_t runs, const cpp_int& extra) {
    return extra * static_cast<unsigned long long>(runs) * to_cpp_int(r.denominator);
  };
  cpp_int d = 1;
  for (const RunFacts& r : a) d = boost::multiprecision::lcm(d, run_denominator(r, a.size(), 1));
  for (const RunFacts& r : b) d = boost::multiprecision::lcm(d, run_denominator(r, b.size(), q));
  denominator_ = to_amount(d, "common denominator");
  for (const RunFacts& r : a)
    a_multipliers_.push_back(to_amount(d / run_denominator(r, a.size(), 1), "multiplier of A"));
  for (const RunFacts& r : b)
    b_multipliers_.push_back(to_amount(p * (d / run_denominator(r, b.size(), q)), "multiplier of B"));
}

Amount Scaling::scale_a(Amount a, std::size_t run) const { return checked_multiply(a, a_multipliers_.at(run)); }

Amount Scaling::scale_b(Amount b, std::size_t run) const { return checked_multiply(b, b_multipliers_.at(run)); }

Amount Scaling::difference(std::span<const Amount> a, std::span<const Amount> b) const {
  Amount result = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (__builtin_add_overflow(result, scale_a(a[i], i), &result))
      throw Error("comparative profile: a sum of scaled costs overflows 128 bits");
  for (std::size_t j = 0; j < b.size(); ++j)
    if (__builtin_sub_overflow(result, scale_b(b[j], j), &result))
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
