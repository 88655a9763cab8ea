#include "bn/iface/units.h"

#include <array>

#include "u128.h"

namespace bn::iface {
namespace {

using boost::multiprecision::cpp_int;
using detail::magnitude_of;
using detail::to_cpp_int;
using detail::U128;
using detail::u128_string;

constexpr int kDigits = 3;  // significant digits of every rounded amount

// |value| ≈ mantissa · 10^exponent with a mantissa of kDigits digits (100 to 999), rounded
// half away from zero; a mantissa of 0 for zero.
struct Significant {
  std::uint64_t mantissa = 0;
  int exponent = 0;
  // The rounded value is at least 10^-shift, i.e. at least 1 in a unit of 10^shift.
  bool at_least_one(int shift) const { return mantissa != 0 && exponent - shift >= 1 - kDigits; }
};

template <class T>
T power_of_ten(int n) {
  T p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

template <class T>
int digit_count(T v) {
  int n = 0;
  for (; v != 0; v /= 10) ++n;
  return n;
}

// n / d (both positive) to kDigits significant digits. n has a digits and d has b, so
// floor(log10(n / d)) is a - b or one less.
template <class T>
Significant significant_of(T n, T d) {
  int k = digit_count(n) - digit_count(d);
  if (k >= 0 ? n < d * power_of_ten<T>(k) : n * power_of_ten<T>(-k) < d) --k;
  int exponent = k - (kDigits - 1);
  if (exponent < 0)
    n *= power_of_ten<T>(-exponent);
  else
    d *= power_of_ten<T>(exponent);
  T mantissa = (2 * n + d) / (2 * d);
  if (mantissa == power_of_ten<T>(kDigits)) {  // 999.5 rounds up to the next power of ten
    mantissa /= 10;
    ++exponent;
  }
  return {static_cast<std::uint64_t>(mantissa), exponent};
}

// |n| / (|d| · factor). Below 2^64 over 2^72 every intermediate of significant_of stays under
// 2^100 (each is within a factor 10^4 of n or d), so 128 bits do; beyond, big integers. Tables
// print two amounts per row for up to 10^5 rows, like percent_string (amount.cpp).
Significant significant(U128 n, U128 d, std::uint64_t factor = 1) {
  if (n == 0) return {};
  constexpr U128 k64 = U128{1} << 64, k72 = U128{1} << 72;
  if (n < k64 && d < k64 && d * factor < k72) return significant_of<U128>(n, d * factor);
  return significant_of<cpp_int>(to_cpp_int(n), to_cpp_int(d) * factor);
}

// The decimal text of mantissa · 10^exponent: "123000", "12.3", "0.0123".
std::string decimal_of(const Significant& s) {
  std::string text = std::to_string(s.mantissa);
  if (s.exponent >= 0) return text + std::string(static_cast<std::size_t>(s.exponent), '0');
  const auto point = static_cast<std::size_t>(-s.exponent);
  if (point < text.size()) return text.insert(text.size() - point, ".");
  return "0." + std::string(point - text.size(), '0') + text;
}

// A value in a unit of 10^shift of the amount: the exponent moves, the digits stay.
std::string in_unit(Significant s, int shift) {
  s.exponent -= shift;
  return decimal_of(s);
}

struct Sign {
  bool negative;
  U128 n, d;
};

Sign sign_of(Amount numerator, Amount denominator) {
  return {numerator != 0 && (numerator < 0) != (denominator < 0), magnitude_of(numerator), magnitude_of(denominator)};
}

std::string signed_text(bool negative, const std::string& text) { return negative ? "-" + text : text; }

// A unit of time: `factor` · 10^`shift` nanoseconds, taken from `from_factor` · 10^`from_shift`
// nanoseconds on. Decimal units start at 1 of themselves; minutes and hours at 100 of the unit
// below, so "60.5 s" and "99.9 s" stay in seconds (three digits of them) and "1.67 min" follows.
struct TimeUnit {
  std::string_view name;
  std::uint64_t factor;
  int shift;
  std::uint64_t from_factor;
  int from_shift;
};
// Largest first: the first whose threshold the rounded value reaches is taken.
constexpr std::array<TimeUnit, 5> kTimeUnits{
    {{"h", 36, 11, 6, 12}, {"min", 6, 10, 1, 11}, {"s", 1, 9, 1, 9}, {"ms", 1, 6, 1, 6}, {"µs", 1, 3, 1, 3}}};

}  // namespace

DisplayUnit display_unit(std::string_view metric, std::string_view unit) {
  constexpr std::array<std::pair<std::string_view, Amount>, 10> kTimes{{{"ns", 1},
                                                                        {"nanoseconds", 1},
                                                                        {"us", 1'000},
                                                                        {"µs", 1'000},
                                                                        {"microseconds", 1'000},
                                                                        {"ms", 1'000'000},
                                                                        {"milliseconds", 1'000'000},
                                                                        {"s", 1'000'000'000},
                                                                        {"seconds", 1'000'000'000},
                                                                        {"sec", 1'000'000'000}}};
  for (const auto& [name, ns] : kTimes)
    if (unit == name) return {UnitKind::duration, std::string(unit), ns};
  if (unit == "bytes") return {UnitKind::bytes, "bytes", 1};
  if (unit == "CPUs" || unit == "lifetime") return {UnitKind::rate, std::string(unit), 1};
  // pprof says "count" for whatever its sample type counts: the type ("calls") names it better.
  if (unit == "count" && !metric.empty()) return {UnitKind::count, std::string(metric), 1};
  return {UnitKind::count, std::string(unit), 1};
}

std::string duration_text(Amount ns_numerator, Amount denominator) {
  if (denominator == 0) return "n/a";
  const Sign v = sign_of(ns_numerator, denominator);
  if (v.n == 0) return "0 s";
  for (const TimeUnit& u : kTimeUnits) {
    if (!significant(v.n, v.d, u.from_factor).at_least_one(u.from_shift)) continue;
    const Significant s = significant(v.n, v.d, u.factor);
    return signed_text(v.negative, in_unit(s, u.shift) + " " + std::string(u.name));
  }
  // Under a microsecond: whole nanoseconds as they are.
  if (v.n % v.d == 0) return signed_text(v.negative, u128_string(v.n / v.d) + " ns");
  return signed_text(v.negative, in_unit(significant(v.n, v.d), 0) + " ns");
}

std::string count_text(Amount numerator, Amount denominator) {
  if (denominator == 0) return "n/a";
  const Sign v = sign_of(numerator, denominator);
  if (v.n % v.d == 0) return signed_text(v.negative, u128_string(v.n / v.d));
  // From 100 on, three digits would round away whole units: the nearest integer instead.
  if (v.n / v.d >= 100) {
    const U128 rest = v.n % v.d;
    return signed_text(v.negative, u128_string(v.n / v.d + (rest >= v.d - rest ? 1 : 0)));
  }
  return signed_text(v.negative, decimal_of(significant(v.n, v.d)));
}

std::string rate_text(Amount numerator, Amount denominator) {
  if (denominator == 0) return "n/a";
  const Sign v = sign_of(numerator, denominator);
  if (v.n == 0) return "0";
  return signed_text(v.negative, decimal_of(significant(v.n, v.d)));
}

std::string bytes_text(Amount numerator, Amount denominator) {
  if (denominator == 0) return "n/a";
  const Sign v = sign_of(numerator, denominator);
  constexpr std::array<std::string_view, 5> kNames{"PiB", "TiB", "GiB", "MiB", "KiB"};
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    const Significant s = significant(v.n, v.d, std::uint64_t{1} << (10 * (kNames.size() - i)));
    if (s.at_least_one(0)) return signed_text(v.negative, decimal_of(s) + " " + std::string(kNames[i]));
  }
  if (v.n % v.d == 0) return signed_text(v.negative, u128_string(v.n / v.d) + " B");
  return signed_text(v.negative, decimal_of(significant(v.n, v.d)) + " B");
}

std::string cell_text(Amount numerator, Amount denominator, const DisplayUnit& unit) {
  switch (unit.kind) {
    case UnitKind::duration:
      return duration_text(numerator * unit.scale, denominator);
    case UnitKind::bytes:
      return bytes_text(numerator, denominator);
    case UnitKind::rate:
      return rate_text(numerator, denominator);
    case UnitKind::count:
      break;
  }
  return count_text(numerator, denominator);
}

bool unit_in_header(const DisplayUnit& unit) {
  return (unit.kind == UnitKind::count || unit.kind == UnitKind::rate) && !unit.name.empty();
}

std::string exact_text(Amount numerator, Amount denominator, const DisplayUnit& unit) {
  return exact_string(numerator, denominator) + (unit.name.empty() ? "" : " " + unit.name);
}

std::string amount_text(Amount numerator, Amount denominator, const DisplayUnit& unit) {
  const std::string cell = cell_text(numerator, denominator, unit);
  return unit_in_header(unit) ? cell + " " + unit.name : cell;
}

}  // namespace bn::iface
