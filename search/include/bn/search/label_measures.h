#pragma once
// The label sets of a session, each measured once by the profile (iface::SummarySet) and kept
// while its summaries stay the same, and the pairs of them that overlap. `select` and `path`
// show every label's overlap with the summary (seed 004 sec. 2.3) and `labels` every pair's that
// is not zero; a label changes far less often than either runs, and with 50 labels of hot
// methods the unions were most of a `path`.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/search/labels.h"

namespace bn::search {

class LabelMeasures {
 public:
  // Two labels whose sets overlap, their names in order.
  struct LabelPair {
    std::string first, second;
    iface::Overlap overlap;
  };

  // The set of the summaries that carry `label` in `labels` (which must have it), measured on p.
  iface::SummarySet& of(iface::Profile& p, const LabelSet& labels, const std::string& label);
  // The overlap of s with each label's set, in the order of labels.all(); kept for the last
  // summary asked, until a label changes (`show` and `back` ask again).
  std::vector<iface::Overlap> with(iface::Profile& p, const LabelSet& labels, iface::Summary s);
  // Every pair of labels whose sets overlap, by (first, second); kept until a label changes.
  // When a few labels changed since the last listing, only their pairs are measured (the rest
  // are kept); otherwise all pairs in one pass (Profile::pair_overlaps), so that a `load` of
  // 10^4 labels costs what the labels hold, not 5·10^7 overlaps.
  const std::vector<LabelPair>& pairs(iface::Profile& p, const LabelSet& labels);
  // The set of every labelled summary (coverage, seed 004 sec. 3).
  iface::SummarySet& all(iface::Profile& p, const LabelSet& labels);
  // Forgets everything: the profile in force changed.
  void clear();

 private:
  // Labels changed since the last listing up to which only their pairs are measured.
  static constexpr std::size_t kFewChanged = 4;

  struct Measured {
    std::unique_ptr<iface::SummarySet> set;
    std::uint64_t serial = 0;  // which measurement of the label this is
    // The set it was measured from when the label gained one summary, kept until its pairs are
    // measured: they follow from the earlier set's pairs and the added summary's overlaps with
    // the labels, which the `path` or `select` before `label` showed (grown_set_overlaps).
    struct Growth {
      std::unique_ptr<iface::SummarySet> earlier;
      std::uint64_t serial = 0;  // of earlier
      iface::Summary added;
    };
    std::optional<Growth> growth;
  };
  // The pairs of the labels' sets as measured at these serials; pairs absent share nothing.
  struct Listing {
    std::map<std::string, std::uint64_t> serials;
    std::vector<LabelPair> pairs;
  };
  Measured& measured(iface::Profile& p, const LabelSet& labels, const std::string& label);
  // The listing of every pair, measured in one pass.
  static Listing listed_afresh(iface::Profile& p, const std::vector<std::string>& names,
                               const std::vector<Measured*>& sets);
  // The overlaps of a changed label's set with `others` (positions in names), in order.
  std::vector<iface::Overlap> overlaps_of_changed(iface::Profile& p, const std::string& name, Measured& changed,
                                                  const std::vector<std::string>& names,
                                                  const std::vector<Measured*>& sets,
                                                  const std::vector<std::size_t>& others) const;
  // The listed overlap of the pair (a, b), names in order: zero if not listed.
  iface::Overlap listed(const std::string& a, const std::string& b) const;
  // The one summary `members` adds to `earlier`, if it adds exactly one and keeps the rest.
  static std::optional<iface::Summary> one_added(std::span<const iface::Summary> earlier,
                                                 const std::vector<iface::Summary>& members);
  static bool same(const std::unique_ptr<iface::SummarySet>& set, const std::vector<iface::Summary>& members);

  std::map<std::string, Measured> sets_;
  std::optional<Listing> listing_;
  std::uint64_t serials_ = 0;
  struct LastSummary {
    iface::Summary summary;
    std::vector<std::uint64_t> serials;  // of the labels' sets, in order
    std::vector<iface::Overlap> overlaps;
  };
  std::optional<LastSummary> last_;
  std::unique_ptr<iface::SummarySet> all_;
};

}  // namespace bn::search
