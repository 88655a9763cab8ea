#include "bn/causal/estimate.h"

#include <algorithm>
#include <cmath>

namespace bn::causal {
namespace {

// Fixed seeds: the same experiments give the same intervals on every run and machine. The
// group's differ from the baseline's so that their resamples are independent draws.
constexpr std::uint64_t kBaselineSeed = 0x62'6e'2d'63'61'75'73'31;  // "bn-caus1"
constexpr std::uint64_t kGroupSeed = 0x62'6e'2d'63'61'75'73'32;     // "bn-caus2"

// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose stream is defined by its
// seed alone, unlike the standard distributions, whose output differs between libraries.
class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : state_(seed) {}
  // An index below n (n > 0). The modulo's bias is below n / 2^64: nothing at these sizes.
  std::size_t below(std::size_t n) {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return static_cast<std::size_t>((z ^ (z >> 31)) % n);
  }

 private:
  std::uint64_t state_;
};

std::optional<double> resampled_period(std::span<const Observation> xs, SplitMix& rng) {
  double d = 0, n = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Observation& o = xs[rng.below(xs.size())];
    d += o.time_ns;
    n += o.progress;
  }
  if (n == 0) return std::nullopt;
  return d / n;
}

}  // namespace

std::optional<double> period_of(std::span<const Observation> group) {
  double d = 0, n = 0;
  for (const Observation& o : group) {
    d += o.time_ns;
    n += o.progress;
  }
  if (n == 0) return std::nullopt;
  return d / n;
}

Baseline::Baseline(std::vector<Observation> experiments) : experiments_(std::move(experiments)) {
  const auto timed = [](std::optional<double> p) { return p && *p != 0 ? p : std::nullopt; };
  period_ = timed(period_of(experiments_));
  if (experiments_.size() < 2) return;
  SplitMix rng(kBaselineSeed);
  resampled_.reserve(kResamples);
  for (std::size_t r = 0; r < kResamples; ++r) resampled_.push_back(timed(resampled_period(experiments_, rng)));
}

Estimate estimate(const Baseline& baseline, std::span<const Observation> group) {
  Estimate out;
  out.experiments = group.size();
  const std::optional<double> p = period_of(group);
  if (!p || !baseline.period()) return out;
  out.speedup = 1 - *p / *baseline.period();
  if (group.size() < 2 || baseline.resampled().empty()) return out;
  SplitMix rng(kGroupSeed);
  std::vector<double> speedups;
  speedups.reserve(kResamples);
  for (const std::optional<double>& base : baseline.resampled()) {
    const std::optional<double> g = resampled_period(group, rng);
    if (g && base) speedups.push_back(1 - *g / *base);
  }
  if (speedups.empty()) return out;
  std::sort(speedups.begin(), speedups.end());
  const std::size_t m = speedups.size();
  const auto at = [&](double q) {
    return speedups[std::min(m - 1, static_cast<std::size_t>(std::floor(q * static_cast<double>(m))))];
  };
  out.interval = Interval{std::min(at(0.025), *out.speedup), std::max(at(0.975), *out.speedup)};
  return out;
}

}  // namespace bn::causal
