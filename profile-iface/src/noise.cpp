#include "bn/iface/noise.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

#include "bn/base/error.h"

namespace bn::iface {
namespace {

struct MeanAndVariance {
  Rational mean;
  Rational variance;  // of the mean
  VarianceEstimate estimate = VarianceEstimate::poisson;
};

MeanAndVariance side(std::span<const Rational> runs) {
  if (runs.empty()) throw Error("noise: a side without runs");
  const Rational n(static_cast<long long>(runs.size()));
  Rational sum = 0;
  for (const Rational& x : runs) sum += x;
  MeanAndVariance out{sum / n, sum / (n * n)};  // Poisson: Var(Σx)/n² = Σx/n²
  if (runs.size() < 2) return out;
  Rational squares = 0;
  for (const Rational& x : runs) squares += (x - out.mean) * (x - out.mean);
  if (const Rational spread = squares / ((n - 1) * n); spread > out.variance) {
    out.variance = spread;
    out.estimate = VarianceEstimate::runs;
  }
  return out;
}

// A rational's numerator and denominator as machine integers, if both fit in 64 bits.
std::optional<std::pair<Amount, Amount>> small_parts(const Rational& r) {
  using boost::multiprecision::cpp_int;
  const cpp_int& num = boost::multiprecision::numerator(r);
  const cpp_int& den = boost::multiprecision::denominator(r);
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  if (num > kMax || num < -kMax || den > kMax) return std::nullopt;
  return std::pair{Amount{num.convert_to<std::int64_t>()}, Amount{den.convert_to<std::int64_t>()}};
}

// x * y and x + y, or nullopt if either is nullopt or the result leaves 128 bits.
std::optional<Amount> times(std::optional<Amount> x, std::optional<Amount> y) {
  Amount out = 0;
  if (!x || !y || __builtin_mul_overflow(*x, *y, &out)) return std::nullopt;
  return out;
}
std::optional<Amount> plus(std::optional<Amount> x, std::optional<Amount> y) {
  Amount out = 0;
  if (!x || !y || __builtin_add_overflow(*x, *y, &out)) return std::nullopt;
  return out;
}

// One run a side, the usual case, in 128-bit integers: with a = an/ad, b = bn/bd, k = kn/kd,
//   z² = (a − k·b)² / (a + k²·b) = (an·kd·bd − kn·bn·ad)² / (ad·bd·(an·kd²·bd + kn²·bn·ad)),
// made a rational once, where rational arithmetic normalised each of its eight steps (most of a
// comparison's suggesters at 10^6 methods, which test every method). Nullopt when a part does
// not fit.
std::optional<Rational> one_run_z_squared(const Rational& a, const Rational& b, const Rational& k) {
  const auto pa = small_parts(a), pb = small_parts(b), pk = small_parts(k);
  if (!pa || !pb || !pk) return std::nullopt;
  const auto [an, ad] = *pa;
  const auto [bn, bd] = *pb;
  const auto [kn, kd] = *pk;
  const std::optional<Amount> d = plus(times(times(an, kd), bd), times(times(-kn, bn), ad));
  const std::optional<Amount> variance =
      times(times(ad, bd), plus(times(times(an, kd), times(kd, bd)), times(times(kn, kn), times(bn, ad))));
  const std::optional<Amount> d_squared = times(d, d);
  if (!d_squared || !variance) return std::nullopt;
  if (*variance == 0) return Rational(0);
  return to_rational(*d_squared, *variance);
}

}  // namespace

const char* to_string(VarianceEstimate e) { return e == VarianceEstimate::runs ? "runs" : "poisson"; }

Noise difference_noise(std::span<const Rational> a_runs, std::span<const Rational> b_runs, const Rational& k) {
  if (a_runs.size() == 1 && b_runs.size() == 1)
    if (std::optional<Rational> z_squared = one_run_z_squared(a_runs[0], b_runs[0], k))
      return {std::move(*z_squared), VarianceEstimate::poisson, VarianceEstimate::poisson, 1, 1};
  const MeanAndVariance a = side(a_runs);
  const MeanAndVariance b = side(b_runs);
  const Rational variance = a.variance + k * k * b.variance;
  Noise out{Rational(0), a.estimate, b.estimate, a_runs.size(), b_runs.size()};
  const Rational d = a.mean - k * b.mean;
  if (variance != 0) out.z_squared = d * d / variance;
  return out;
}

Noise difference_noise(const Rational& a, const Rational& b, const Rational& k) {
  return difference_noise(std::span(&a, 1), std::span(&b, 1), k);
}

std::string Noise::estimates_text() const {
  const auto name = [](VarianceEstimate e) { return e == VarianceEstimate::runs ? "runs' spread" : "Poisson"; };
  return std::string("variance from A: ") + name(a_estimate) + ", B: " + name(b_estimate);
}

// Display only: the decision is made on the exact z².
std::string Noise::z_text() const {
  const double z = std::sqrt(z_squared.convert_to<double>());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", z);
  return buf;
}

}  // namespace bn::iface
