#include "common_denominator.h"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>

#include "bn/base/error.h"

namespace bn::views::detail {
namespace {

using boost::multiprecision::cpp_int;

// v < 2^127.
iface::Amount to_amount(const cpp_int& v) {
  const cpp_int mask = (cpp_int(1) << 64) - 1;
  const auto low = static_cast<std::uint64_t>(v & mask);
  const auto high = static_cast<std::uint64_t>(v >> 64);
  return static_cast<iface::Amount>((static_cast<U128>(high) << 64) | low);
}

cpp_int big(U128 v) {
  cpp_int x = static_cast<std::uint64_t>(v >> 64);
  x <<= 64;
  x += static_cast<std::uint64_t>(v);
  return x;
}

}  // namespace

iface::Amount CommonDenominator::finish(const std::string& what, int bits, const std::string& hint) const {
  cpp_int d = 1;
  std::uint64_t largest = 1;
  for (const std::uint64_t den : seen_) {
    d = boost::multiprecision::lcm(d, cpp_int(den));
    largest = std::max(largest, den);
  }
  const cpp_int limit = (cpp_int(1) << bits) - 1;
  const cpp_int needed = d * std::max(big(total_), cpp_int(1));
  if (needed <= limit) return to_amount(d);
  const auto d_bits = static_cast<int>(boost::multiprecision::msb(d)) + 1;
  const auto needed_bits = static_cast<int>(boost::multiprecision::msb(needed)) + 1;
  throw Error(what + ": exact costs need " + std::to_string(needed_bits) + " bits, more than the " +
              std::to_string(bits) + " a cost holds: a common denominator of " + std::to_string(d_bits) +
              " bits (the lcm of " + std::to_string(seen_.size()) +
              " distinct denominators of fractional hits, the largest " + std::to_string(largest) +
              ") times totals up to " + big(total_).str() + (hint.empty() ? "" : "; " + hint) +
              " (docs/views.md, \"Limits\")");
}

}  // namespace bn::views::detail
