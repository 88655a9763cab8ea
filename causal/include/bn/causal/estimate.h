#pragma once
// What speeding up a target by one virtual speedup does to the program (seed 003; Coz's
// virtual speedup), from a group of experiments against the baseline, at one progress point
// (docs/causal.md, "Estimates"). At a throughput point an experiment's time d is its effective
// duration, duration − delay, the time the program would have taken without the pauses
// inserted, and n the progress it made; at a latency point d is the time its requests spent in
// flight, in the same virtual time, and n their arrivals. The time per unit of a group is the
// ratio of sums P = Σd / Σn, as Coz computes it: long experiments weigh more, and one with no
// progress still counts its time. It is the period of the program's progress, or its mean
// latency; the program speedup 1 − P(group) / P(baseline) is a fraction, positive when the
// program gets faster (more progress per time, or shorter latency).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace bn::causal {

// One experiment as an estimate sees it at one progress point.
struct Observation {
  double time_ns = 0;   // throughput: duration − delay; latency: time in flight
  double progress = 0;  // units counted at the point (latency: arrivals)
};

// A 95% interval of a program speedup, low <= high.
struct Interval {
  double low = 0;
  double high = 0;
};

struct Estimate {
  std::size_t experiments = 0;  // in the group
  // The program speedup; none when the group or the baseline made no progress, or the baseline
  // took no time (there is no period to compare).
  std::optional<double> speedup;
  // Percentile bootstrap; none without an estimate or with fewer than 2 experiments on either
  // side (one experiment has no spread to resample).
  std::optional<Interval> interval;
};

// Resamples of the bootstrap: enough for stable 2.5% and 97.5% percentiles (25 values beyond
// each), few enough that a curve of 21 points over thousands of experiments stays instant.
inline constexpr std::size_t kResamples = 1000;

// The baseline (every experiment at speedup 0) and its bootstrap resamples, drawn once with a
// fixed seed and shared by every group it is compared with: output is reproducible, and each
// group costs only its own resampling.
class Baseline {
 public:
  explicit Baseline(std::vector<Observation> experiments);
  std::size_t size() const { return experiments_.size(); }
  // P(baseline), or none without progress or time.
  std::optional<double> period() const { return period_; }
  // The period of each resample in which it has one.
  std::span<const std::optional<double>> resampled() const { return resampled_; }

 private:
  std::vector<Observation> experiments_;
  std::optional<double> period_;
  std::vector<std::optional<double>> resampled_;
};

// Σd / Σn of `group`, or none when Σn is 0.
std::optional<double> period_of(std::span<const Observation> group);

// The program speedup of `group` against `baseline`, with its interval: each of kResamples
// resamples draws the group and the baseline with replacement, independently, and the interval
// is the 2.5th and 97.5th percentiles of their speedups, widened to hold the estimate itself
// (with few experiments the percentiles of a ratio may both fall on one side of it).
Estimate estimate(const Baseline& baseline, std::span<const Observation> group);

}  // namespace bn::causal
