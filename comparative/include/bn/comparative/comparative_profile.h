#pragma once
// The comparative backend (seed 004 sec. 2.2, "Comparing Call-tree Profiles"): profile A minus
// profile B, related by call sequence rather than by subtree. Written only against the profile
// interface, so either side can be any backend.
//
// A comparative summary is a call sequence plus its summary in A and its summary in B; a side
// is absent when the sequence has no root there (at least one side is present). Every number
// is A's minus B's, with an absent side counting 0 and B weighed by the normalisation; costs may
// be negative and cum may be below base — they are exposed, never clamped (sec. 2.2). Extension
// lists are the union of both sides. Summaries are interned by call sequence.
//
// The two sides are borrowed: they must outlive the comparative profile.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bn/comparative/normalization.h"
#include "bn/iface/error.h"
#include "bn/iface/profile.h"

namespace bn::comparative {

// The sides measure different metrics or units and CompareOptions::force is off. A front end
// names its own way to force the comparison.
class MetricMismatch : public Error {
 public:
  using Error::Error;
};

struct CompareOptions {
  Normalization normalization;
  // Compare profiles whose metric or unit differ (refused otherwise).
  bool force = false;
};

class ComparativeProfile final : public iface::Profile {
 public:
  // Throws MetricMismatch when the sides measure different metrics or units and !options.force,
  // bn::Error when the normalisation cannot be applied (see Scaling).
  ComparativeProfile(iface::Profile& a, iface::Profile& b, CompareOptions options = {});

  // Facts the user should see before trusting the numbers: an empty side, a forced comparison
  // of different metrics. One line each.
  const std::vector<std::string>& notes() const { return notes_; }
  // The normalisation as the header shows it: "none", "total (B × 7/5)", "scale (B × 1/2)".
  std::string normalization_text() const { return scaling_.describe(); }
  // How each side's numerators become this profile's (for pictures drawn from the sides' trees).
  const Scaling& scaling() const { return scaling_; }

  std::vector<std::string_view> path_of(iface::Summary s) override;
  std::vector<iface::Summary> initial_summaries() override;
  std::optional<iface::Summary> method_summary(std::string_view method) override;
  std::vector<std::string_view> top_extensions(iface::Summary s) override;
  std::vector<std::string_view> bottom_extensions(iface::Summary s) override;
  std::optional<iface::Summary> extend_top(iface::Summary s, std::string_view m) override;
  std::optional<iface::Summary> extend_bottom(iface::Summary s, std::string_view m) override;
  // Both sides' extension_amounts merged by name (comparative_extensions.cpp), so ranking a
  // neighbourhood of 10^5 extensions builds none of them on either side.
  std::vector<iface::ExtensionAmounts> extension_amounts(iface::Summary s, iface::End end) override;
  // The difference of the two sides' running unions.
  std::unique_ptr<iface::ExtensionUnion> extension_union(iface::Summary s, iface::End end) override;
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
  // sampling noise, or is near zero (under 1% of A's total). Empty when they are of the difference.
  std::string percent_base_reason();
  iface::Amount denominator() override { return scaling_.denominator(); }
  iface::MetricInfo metric() override { return metric_; }
  std::optional<iface::SideBySide> sides(iface::Summary s) override;
  // The two-sample test of noise.h on the sides' sample counts, B weighed by the normalisation;
  // nullopt unless both sides count samples.
  std::optional<iface::Noise> noise(iface::Summary s) override;
  std::optional<iface::Noise> total_noise() override;

 private:
  using NameId = std::uint32_t;
  struct Record {
    std::vector<NameId> calls;
    std::optional<iface::Summary> a;
    std::optional<iface::Summary> b;
    bool pattern = false;  // the sequence has a gap or an aspect
  };
  struct SideSets {
    std::vector<iface::Summary> a, b;
  };
  struct CallsHash {
    std::size_t operator()(const std::vector<NameId>& calls) const;
  };

  // One extension as each side listed it (an absent side: nullopt), for the last summary whose
  // extensions were measured at each end; the merged ExtensionAmounts' tag indexes it.
  struct SideExtensions {
    iface::Summary of;
    std::vector<std::optional<iface::ExtensionAmounts>> a, b;
  };
  class RunningUnion;  // comparative_extensions.cpp

  const Record& record(iface::Summary s) const;
  // The test for A's and B's amounts (numerators over each side's denominator).
  std::optional<iface::Noise> noise_of(iface::Amount a, iface::Amount b);
  NameId name_id(std::string_view side_owned_name);
  // The interned summary for a pair of side summaries of the same call sequence.
  std::optional<iface::Summary> intern(std::optional<iface::Summary> a, std::optional<iface::Summary> b);
  // Both sides' amounts merged by name: each method once, an absent side counting 0.
  std::vector<iface::ExtensionAmounts> merged(std::vector<iface::ExtensionAmounts> in_a,
                                              std::vector<iface::ExtensionAmounts> in_b, SideExtensions* sides) const;
  // Trimming: a sequence absent from a side can have a trimmed sequence present there, so each
  // side is recomputed from the trimmed path unless the untrimmed one is present.
  std::optional<iface::Summary> trimmed(iface::Summary s, iface::End end);
  // The present A-sides and B-sides of the summaries in S.
  SideSets split(std::span<const iface::Summary> S) const;
  // The last extensions measured at `end`.
  std::shared_ptr<const SideExtensions>& sides_of(iface::End end) { return side_extensions_[static_cast<int>(end)]; }

  iface::Profile& a_;
  iface::Profile& b_;
  std::vector<std::string> notes_;  // declared first: the initialisers below append to it
  iface::MetricInfo metric_;        // checked before the normalisation is resolved
  Scaling scaling_;
  std::vector<std::string_view> names_;  // views into the sides' names, which outlive us
  std::unordered_map<std::string_view, NameId> name_ids_;
  std::vector<Record> records_;
  std::unordered_map<std::vector<NameId>, std::uint32_t, CallsHash> index_;
  std::unordered_map<std::string, std::uint32_t> pattern_index_;  // by CallPattern::key()
  std::optional<std::vector<iface::Summary>> initial_;
  std::array<std::shared_ptr<const SideExtensions>, 2> side_extensions_;  // by End
};

}  // namespace bn::comparative
