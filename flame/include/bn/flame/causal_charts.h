#pragma once
// The causal curves drawn below a flame graph (docs/causal.md, "Reading a curve"): per target of
// a causal recording, what a virtual speedup of it did to the program, beside what a sampling
// profile promises for it (its cost share). Plain data: the tool computes the curves with
// bn_causal exactly as the REPL's `causal` does and hands them in, so flame/ draws them without
// knowing the analysis or where the experiments come from.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bn::flame {

// A program speedup (a fraction, positive: faster) measured on a group of experiments.
struct CausalEstimate {
  std::size_t experiments = 0;
  std::optional<double> speedup;    // none without progress in the group or the baseline
  std::optional<double> low, high;  // the 95% interval; none with fewer than 2 experiments
};

struct CausalPoint {
  std::uint32_t speedup = 0;  // virtual speedup, percent
  CausalEstimate estimate;
};

struct CausalFlag {
  std::string name;         // "plateau"
  std::string explanation;  // one line: what it means for the user
};

struct CausalChart {
  std::string name;  // a label's name, or the call sequence joined by ";"
  bool is_label = false;
  // The innermost call of each of its summaries, the frames a click on the chart highlights in
  // the page; empty when a summary ends in an aspect, which no single frame name matches.
  std::vector<std::string> frames;
  double cost_share = 0;            // of the profile drawn, 0..1
  CausalEstimate summary;           // "if 50% faster": speedups 40..60 pooled
  std::vector<CausalPoint> points;  // ascending speedup
  std::vector<CausalFlag> flags;
};

struct CausalCharts {
  // Where the experiments come from, one line: "120 experiments (30 at 0%, the baseline) from 1
  // recording, progress at Server.reply".
  std::string about;
  std::vector<CausalChart> targets;  // in the order of `causal`: the largest gain first
  bool empty() const { return targets.empty(); }
};

}  // namespace bn::flame
