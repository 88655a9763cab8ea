#include "bn/iface/noise.h"

#include <cmath>
#include <cstdio>

namespace bn::iface {

Noise difference_noise(const Rational& a, const Rational& b, const Rational& k) {
  const Rational variance = a + k * k * b;
  if (variance == 0) return {Rational(0)};
  const Rational d = a - k * b;
  return {d * d / variance};
}

// Display only: the decision is made on the exact z².
std::string Noise::z_text() const {
  const double z = std::sqrt(z_squared.convert_to<double>());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", z);
  return buf;
}

}  // namespace bn::iface
