#pragma once
// The causal profile of the recordings a session searches (seed 003, JCoz; docs/causal.md), as
// the REPL's `causal` shows it: plain data the session's source computes (it alone reads the
// experiments and knows the analysis), so that the REPL stays on profile-iface as for `threads`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bn::search {

// What `causal` says of a profile without experiments (docs/causal.md, "Recording").
inline constexpr std::string_view kNoCausalExperiments =
    "this profile has no causal experiments: record with `bottlenecks record --mode causal ...` (docs/causal.md)";

// A program speedup (a fraction, positive: faster) from a group of experiments.
struct CausalEstimate {
  std::size_t experiments = 0;
  std::optional<double> speedup;    // none without progress in the group or the baseline
  std::optional<double> low, high;  // the 95% interval; none with fewer than 2 experiments
};

struct CausalFlag {
  std::string name;         // "plateau"
  std::string explanation;  // one line
};

struct CausalTargetLine {
  std::string name;  // the label's name, or the sequence joined by ";"
  bool is_label = false;
  std::vector<std::vector<std::string>> summaries;  // its call sequences, outermost first
  double cost_share = 0;                            // of the profile in force, 0..1
  CausalEstimate summary;                           // "if 50% faster": speedups 40..60 pooled
  struct Point {
    std::uint32_t speedup = 0;  // virtual speedup, percent
    CausalEstimate estimate;
  };
  std::vector<Point> curve;  // ascending speedup
  std::vector<CausalFlag> flags;
};

struct CausalReport {
  std::string progress;  // the progress point analysed
  // Its kind: "throughput" (completed calls), "end" (whole runs) or "latency" (BEGIN:END, where a
  // program speedup is the relative reduction of the mean latency).
  std::string progress_kind;
  std::vector<std::string> points;  // every progress point recorded, in order
  std::size_t experiments = 0;
  std::size_t baseline_experiments = 0;   // at speedup 0, every target's
  std::size_t recordings = 0;             // files pooled
  std::vector<std::string> notes;         // e.g. a target whose summaries do not resolve here
  std::vector<CausalTargetLine> targets;  // ranked, best first
  bool at_latency_point() const { return progress_kind == "latency"; }
};

// The line above a causal report, in the REPL and above a flame graph's charts: how many
// experiments from how many recordings, the progress point (and how to pick another: `pick`),
// and what an estimate means at a latency point.
std::string causal_about(const CausalReport& r, std::string_view pick);

}  // namespace bn::search
