#pragma once
// `bottlenecks diff`: what got slower and what got faster between candidate runs A and baseline
// runs B, as plain data (rendered by diff_render.h). The summaries are autolabel's
// non-overlapping set (search/autolabel.h) for each sign of A − B; each difference is tested
// across runs on per-run shares (comparative/run_shares.h, welch.h): by max-t over relabellings of
// the runs (max_t.h) when there are enough runs, else with false-discovery control over every
// difference tested (false_discovery.h); then held against the gates (diff_gate.h).
// docs/compare.md, "The diff gate", states the statistics and their assumptions.

#include <optional>
#include <string>
#include <vector>

#include "bn/comparative/comparative_profile.h"
#include "bn/comparative/welch.h"
#include "bn/iface/units.h"
#include "comparison.h"
#include "diff_gate.h"

namespace bn::cli {

// The error held over a report's tests (family-wise under max-t, the false-discovery rate
// otherwise) and the intervals' confidence.
inline constexpr double kDiffErrorRate = 0.05;
inline constexpr double kDiffConfidence = 0.95;

struct DiffSettings {
  std::vector<Gate> gates;  // empty: kDefaultGate
  double min_effect = 0.005;
  std::size_t per_sign = 15;  // autolabel's N for each sign
};

// One difference tested: a summary, the total or a gate's methods.
struct DiffRow {
  std::vector<std::string> calls;  // a summary's call sequence; empty for the total and gates
  // A's mean cum and B's (normalised), over DiffReport::denominator; 0 for a gate's methods
  iface::Amount a = 0, b = 0;
  comparative::DifferenceTest test;  // difference as a share of the baseline's total
  bool tested = false;               // false: no sampling variance and one run per side
  bool significant = false;          // after max-t or false-discovery control (and |z| >= 4 with one run)
  bool trips = false;                // a gate fails on it
};

struct GateOutcome {
  Gate gate;
  std::optional<DiffRow> subject;  // total and method gates: what they test
  std::size_t methods = 0;         // method gates: how many methods match
  std::size_t tripped_by = 0;      // cum gates: how many summaries trip it; others 0 or 1
  bool tripped() const { return tripped_by > 0; }
};

// How a report's differences were judged together.
struct DiffTest {
  enum class Kind { max_t, false_discovery } kind = Kind::false_discovery;
  std::size_t tests = 0;          // differences judged together
  std::size_t labellings = 0;     // max-t: labellings of the runs
  bool exhaustive = false;        // max-t: every labelling, not a random draw
  std::size_t methods_added = 0;  // max-t: methods in the family beside the reported rows
};

struct DiffReport {
  Side a, b;
  std::string normalization;
  iface::DisplayUnit unit;
  iface::Amount denominator = 1;
  iface::Amount b_total = 0;     // k times B's mean total: what percentages are of
  std::vector<DiffRow> rows;     // regressions, then improvements: each significant first, then largest first
  std::optional<DiffRow> total;  // nullopt under --normalize total (totals made equal)
  std::vector<GateOutcome> gates;
  DiffTest test;
  double min_effect = 0;
  std::vector<std::string> notes;  // one line each
  bool tripped() const;
  std::size_t significant(int sign) const;  // rows significant in that direction
};

// Throws bn::Error for a method gate whose pattern matches no method and for an empty baseline.
DiffReport make_diff_report(comparative::ComparativeProfile& p, const Side& a, const Side& b,
                            const DiffSettings& settings);

}  // namespace bn::cli
