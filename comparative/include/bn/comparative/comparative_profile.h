#pragma once
// The comparative backend (seed 004 sec. 2.2, "Comparing Call-tree Profiles"): profile A minus
// profile B, related by call sequence rather than by subtree. Written only against the profile
// interface, so either side can be any backend.
//
// Each side is one run or the exact mean of several (the mean of n runs is their sum
// over n, as rationals over one common denominator), so noise can be measured from the runs'
// spread. A comparative summary is a call sequence plus its summary in each run; a run is
// absent when the sequence has no root there (at least one run is present) and counts 0. Every
// number is A's mean minus B's, B weighed by the normalisation; costs may be negative and cum
// may be below base — they are exposed, never clamped (sec. 2.2). Extension lists are the union
// of every run's. Summaries are interned by call sequence.
//
// The runs are borrowed: they must outlive the comparative profile. Distinct runs are asked the
// same question from several threads at once, each run from one thread at a time, so they must
// share nothing mutable (profiles of distinct trees, or of one tree whose lazy indexes are
// guarded, as CallTree's are).

#include <array>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bn/base/each_in_parallel.h"
#include "bn/base/error.h"
#include "bn/comparative/normalization.h"
#include "bn/iface/profile.h"

namespace bn::comparative {

// The sides measure different metrics or units and CompareOptions::force is off. A front end
// names its own way to force the comparison.
class MetricMismatch : public Error {
 public:
  using Error::Error;
};

// The runs of one side measure different metrics or units: their mean means nothing, so this is
// refused even with CompareOptions::force.
class RunMismatch : public Error {
 public:
  RunMismatch(const std::string& message, bool side_b) : Error(message), in_b(side_b) {}
  bool in_b;  // the runs are B's (else A's)
};

struct CompareOptions {
  Normalization normalization;
  // Compare profiles whose metric or unit differ (refused otherwise).
  bool force = false;
};

class ComparativeProfile final : public iface::Profile {
 public:
  // Throws MetricMismatch when the sides measure different metrics or units and !options.force,
  // RunMismatch when the runs of one side do, bn::Error when a side has no runs or when the
  // normalisation cannot be applied (see Scaling).
  ComparativeProfile(std::vector<iface::Profile*> a_runs, std::vector<iface::Profile*> b_runs,
                     const CompareOptions& options = {});
  // One run per side.
  ComparativeProfile(iface::Profile& a, iface::Profile& b, const CompareOptions& options = {})
      : ComparativeProfile(std::vector{&a}, std::vector{&b}, options) {}

  // Facts the user should see before trusting the numbers: an empty side, a forced comparison
  // of different metrics. One line each.
  const std::vector<std::string>& notes() const { return notes_; }
  // The normalisation as the header shows it: "none", "total (B × 7/5)", "scale (B × 1/2)".
  std::string normalization_text() const { return scaling_.describe(); }
  // How each side's numerators become this profile's (for pictures drawn from the sides' trees).
  const Scaling& scaling() const { return scaling_; }
  // Each run's own numbers, A's runs first (scaling().a_runs() of them), exact in the run's unit:
  // the total_cum_of the summaries of S present in it (0 where none is) and its total. A test
  // across runs (run_shares.h) takes them one by one where the mean would hide their spread.
  std::vector<iface::Rational> run_cums(std::span<const iface::Summary> S);
  std::vector<iface::Rational> run_totals();

  std::vector<std::string_view> path_of(iface::Summary s) override;
  std::vector<iface::Summary> initial_summaries() override;
  std::optional<iface::Summary> method_summary(std::string_view method) override;
  std::vector<std::string_view> top_extensions(iface::Summary s) override;
  std::vector<std::string_view> bottom_extensions(iface::Summary s) override;
  // The union of the runs' own, asked until it is `at_most` long.
  std::vector<std::string_view> top_extensions_up_to(iface::Summary s, std::size_t at_most,
                                                     std::string_view other_than) override;
  // Each run's own summary of the path, interned.
  std::optional<iface::Summary> path_summary(std::span<const std::string_view> path) override;
  std::optional<iface::Summary> extend_top(iface::Summary s, std::string_view m) override;
  std::optional<iface::Summary> extend_bottom(iface::Summary s, std::string_view m) override;
  // Both sides' extension_amounts merged by name (comparative_extensions.cpp), so ranking a
  // neighbourhood of 10^5 extensions builds none of them on either side.
  std::vector<iface::ExtensionAmounts> extension_amounts(iface::Summary s, iface::End end) override;
  // The difference of the two sides' running unions.
  std::unique_ptr<iface::ExtensionUnion> extension_union(iface::Summary s, iface::End end) override;
  // Every run's own walk, a run dropping out at a step it does not list.
  std::unique_ptr<iface::ExtensionWalk> extension_walk(iface::Summary s, iface::End end) override;
  // Each run's set of the members present there, its overlaps those sets' combined
  // (comparative_summary_set.cpp).
  std::unique_ptr<iface::SummarySet> summary_set(std::span<const iface::Summary> S) override;
  // Each run's pairs from its own profile (one sweep each in the tree backend), combined.
  std::vector<iface::SetPairOverlap> pair_overlaps(std::span<iface::SummarySet* const> sets) override;
  std::optional<iface::Summary> trim_top(iface::Summary s) override;
  std::optional<iface::Summary> trim_bottom(iface::Summary s) override;
  iface::Amount base_of(iface::Summary s) override;
  iface::Amount cum_of(iface::Summary s) override;
  iface::Amount total_base_of(std::span<const iface::Summary> S) override;
  iface::Amount total_cum_of(std::span<const iface::Summary> S) override;
  // Each side's summary of p (seed 000 sec. 2-3); interned by p's key, definitions of its
  // aspects included, so a redefined aspect never reuses an old summary.
  std::optional<iface::Summary> pattern_summary(const iface::CallPattern& p) override;
  iface::CallPattern pattern_of(iface::Summary s) override;
  // Both sides' gap_extensions merged by name, like extension_amounts.
  std::vector<iface::ExtensionAmounts> gap_extensions(iface::Summary s) override;
  iface::Amount total() override;
  // The total difference, or A's total when percent_base_reason() says why not.
  iface::Profile::PercentBase percent_base() override;
  // Why percentages are of A's total instead of the total difference, which would make them
  // meaningless (241.8%, -176.2%): the difference sums to 0 (--normalize total), is within
  // sampling noise, is near zero (under 1% of A's total), or is of the opposite sign to a
  // method's difference that outweighs it (opposite_sign()). Empty when they are of the difference.
  std::string percent_base_reason();
  // The method whose difference has the opposite sign to the total difference and exceeds it in
  // size, the largest such (beyond noise where noise is tested); nullopt when there is none or
  // the total difference is 0. Percentages of the total would make it below -100%.
  std::optional<iface::Summary> opposite_sign();
  iface::Amount denominator() override { return scaling_.denominator(); }
  iface::MetricInfo metric() override { return metric_; }
  std::optional<iface::SideBySide> sides(iface::Summary s) override;
  // The two-sample test of noise.h on the runs' sample counts, B weighed by the normalisation;
  // nullopt unless every run counts samples.
  std::optional<iface::Noise> noise(iface::Summary s) override;
  std::optional<iface::Noise> total_noise() override;

 private:
  using NameId = std::uint32_t;
  enum class Side { a, b };
  // A summary in each run, A's runs first; nullopt where the sequence has no root.
  using RunSummaries = boost::container::small_vector<std::optional<iface::Summary>, 2>;
  // One amount per run, in the same order.
  using RunAmounts = boost::container::small_vector<iface::Amount, 2>;
  // clang-tidy 14 finds a throw under small_vector's implicitly noexcept destructor that
  // deallocation never reaches.
  struct Record {  // NOLINT(bugprone-exception-escape)
    std::vector<NameId> calls;
    RunSummaries runs;
    bool pattern = false;  // the sequence has a gap or an aspect
  };
  struct CallsHash {
    std::size_t operator()(const std::vector<NameId>& calls) const;
  };

  // Each run's extensions of the last summary whose extensions were measured at each end, sorted
  // by name (none where it is absent), and where each merged extension is in them: the merged
  // ExtensionAmounts' tag is a row of `at`. Flat indices, not a copy of each run's amounts per
  // extension: a list of 10^4 extensions in ten runs is then 0.4 MB instead of 8.
  struct SideExtensions {
    static constexpr std::uint32_t kAbsent = UINT32_MAX;
    iface::Summary of;
    std::vector<std::vector<iface::ExtensionAmounts>> runs;
    std::vector<std::uint32_t> at;  // extension i in run r: runs[r][at[i * runs.size() + r]], or kAbsent
  };
  class RunningUnion;  // comparative_extensions.cpp
  class RunWalks;      // comparative_extensions.cpp
  class RunSets;       // comparative_summary_set.cpp

  const Record& record(iface::Summary s) const;
  // `measure(run, summary)` of every run where s is present, 0 elsewhere.
  template <class Measure>
  RunAmounts per_run(const Record& r, Measure measure);
  // A's mean minus B's weighed, of one amount per run.
  iface::Amount combined(const RunAmounts& amounts) const;
  // A's mean, or B's weighed, of one amount per run.
  iface::Amount side_sum(const RunAmounts& amounts, Side side) const;
  // A's mean total over the common denominator.
  iface::Amount a_total();
  // The test for one amount per run (numerators over each run's denominator).
  std::optional<iface::Noise> noise_of(const RunAmounts& amounts);
  NameId name_id(std::string_view side_owned_name);
  // The interned summary for the runs' summaries of the same call sequence.
  std::optional<iface::Summary> intern(const RunSummaries& runs);
  // The runs' amounts merged by name: each method once, an absent run counting 0. `sides`, when
  // given, keeps the runs' lists and where each merged extension is in them.
  std::vector<iface::ExtensionAmounts> merged(std::vector<std::vector<iface::ExtensionAmounts>> listed,
                                              SideExtensions* sides) const;
  // extension_amounts measured anew, its runs' lists kept for running unions (sides_of(end)).
  std::vector<iface::ExtensionAmounts> measured_extensions(iface::Summary s, iface::End end);
  // The runs' lists of extensions of s at `end` (gap: s;..;x), empty where s is absent.
  std::vector<std::vector<iface::ExtensionAmounts>> run_extensions(iface::Summary s, std::optional<iface::End> end);
  // Trimming: a sequence absent from a side can have a trimmed sequence present there, so each
  // side is recomputed from the trimmed path unless the untrimmed one is present.
  std::optional<iface::Summary> trimmed(iface::Summary s, iface::End end);
  // total_base_of or total_cum_of of S: each run's over the summaries present there.
  template <class Total>
  RunAmounts run_totals_of(std::span<const iface::Summary> S, Total total);
  // Each run's amount over its own denominator, as a rational.
  std::vector<iface::Rational> in_run_units(const RunAmounts& amounts) const;
  // The last extensions measured at `end`.
  std::shared_ptr<const SideExtensions>& sides_of(iface::End end) { return side_extensions_[static_cast<int>(end)]; }

  // work(i) for each run i: in parallel when every run is its own object, since a run's profile
  // may keep caches (each run's questions then come from one thread at a time), else in turn.
  template <class Work>
  void each_run(const Work& work) {
    if (runs_in_parallel_) {
      base::for_each_in_parallel(runs_.size(), work);
    } else {
      for (std::size_t i = 0; i < runs_.size(); ++i) work(i);
    }
  }

  std::vector<iface::Profile*> runs_;  // A's runs, then B's
  bool runs_in_parallel_ = false;      // no run appears twice in runs_
  std::size_t a_count_;                // how many of runs_ are A's
  std::vector<std::string> notes_;     // declared before the initialisers that append to it
  iface::MetricInfo metric_;           // checked before the normalisation is resolved
  Scaling scaling_;
  std::vector<std::string_view> names_;  // views into the sides' names, which outlive us
  std::unordered_map<std::string_view, NameId> name_ids_;
  std::vector<Record> records_;
  std::unordered_map<std::vector<NameId>, std::uint32_t, CallsHash> index_;
  std::unordered_map<std::string, std::uint32_t> pattern_index_;  // by CallPattern::key()
  std::optional<std::vector<iface::Summary>> initial_;
  std::array<std::shared_ptr<const SideExtensions>, 2> side_extensions_;  // by End
  // extension_amounts by summary and end: autolabel weighs the candidates its zooms listed
  // already, ten runs' lists each. Emptied when it would hold over kKeptExtensions.
  static constexpr std::size_t kKeptExtensions = std::size_t{1} << 19;
  std::map<std::pair<std::uint32_t, iface::End>, std::vector<iface::ExtensionAmounts>> kept_extensions_;
  std::size_t kept_count_ = 0;                                  // extensions in kept_extensions_
  std::optional<std::optional<iface::Summary>> opposite_sign_;  // computed once
};

}  // namespace bn::comparative
