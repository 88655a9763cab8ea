#include "bn/iface/noise.h"

#include <cmath>
#include <cstdio>

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

}  // namespace

const char* to_string(VarianceEstimate e) { return e == VarianceEstimate::runs ? "runs" : "poisson"; }

Noise difference_noise(std::span<const Rational> a_runs, std::span<const Rational> b_runs, const Rational& k) {
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
