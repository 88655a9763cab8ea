#pragma once
// Exact non-negative fractions for typed time (seed 000 sec. 5.2: "an exact rational arithmetic
// data type to record and combine fractional hits, so no precision is lost"). A view computes
// each measurement's weight as a reduced fraction of machine integers, collects the distinct
// denominators, and stores numerators over their lcm (view_builder.cpp); only that lcm needs
// Boost.Multiprecision. The numbers involved are small (runnable-thread counts, CPUs,
// nanoseconds), so a 128-bit numerator over a 64-bit denominator always holds them.

#include <cstdint>
#include <numeric>

#include "bn/base/error.h"

namespace bn::views::detail {

using U128 = unsigned __int128;

struct Weight {
  U128 num = 0;
  std::uint64_t den = 1;  // >= 1; gcd(num, den) == 1

  bool zero() const { return num == 0; }
  friend bool operator==(const Weight&, const Weight&) = default;
};

inline Weight reduced(U128 num, std::uint64_t den) {
  const auto rest = static_cast<std::uint64_t>(num % den);
  const std::uint64_t g = rest == 0 ? den : std::gcd(rest, den);
  return {num / g, den / g};
}

inline Weight whole(U128 n) { return {n, 1}; }

// a · b. The callers multiply nanoseconds (below 2^64) or a share of a CPU by a fraction of
// thread counts (below 2^32 each), so the result fits unless a tick holds billions of records;
// that is refused rather than wrapped.
inline Weight times(Weight a, Weight b) {
  const Weight x = reduced(a.num, b.den);
  const Weight y = reduced(b.num, a.den);
  U128 num = 0;
  std::uint64_t den = 0;
  if (__builtin_mul_overflow(x.num, y.num, &num) || __builtin_mul_overflow(x.den, y.den, &den))
    throw Error("typed time: a fraction of a sample exceeds 128 bits (too many threads in one tick)");
  return {num, den};
}

// a + b, for the small denominators of CPU shares (thread counts times CPUs).
inline Weight plus(Weight a, Weight b) {
  const std::uint64_t g = std::gcd(a.den, b.den);
  U128 num = 0, left = 0, right = 0;
  std::uint64_t den = 0;
  if (__builtin_mul_overflow(a.num, b.den / g, &left) || __builtin_mul_overflow(b.num, a.den / g, &right) ||
      __builtin_add_overflow(left, right, &num) || __builtin_mul_overflow(a.den / g, b.den, &den))
    throw Error("typed time: a sum of CPU shares exceeds 128 bits (too many threads in one tick)");
  return reduced(num, den);
}

// 1 - a, for 0 <= a <= 1.
inline Weight one_minus(Weight a) { return {a.den - a.num, a.den}; }

}  // namespace bn::views::detail
