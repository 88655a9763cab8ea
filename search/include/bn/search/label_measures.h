#pragma once
// The label sets of a session, each measured once by the profile (iface::SummarySet) and kept
// while its summaries stay the same, and the overlap of each pair of them. `select` and `path`
// show every label's overlap with the summary (seed 004 sec. 2.3) and `labels` every pair's; a
// label changes far less often than either runs, and with 50 labels of hot methods the unions
// were most of a `path`.

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
  // The set of the summaries that carry `label` in `labels` (which must have it), measured on p.
  iface::SummarySet& of(iface::Profile& p, const LabelSet& labels, const std::string& label);
  // The overlap of s with each label's set, in the order of labels.all(); kept for the last
  // summary asked, until a label changes (`show` and `back` ask again).
  std::vector<iface::Overlap> with(iface::Profile& p, const LabelSet& labels, iface::Summary s);
  // The overlap of two labels' sets, kept until either changes. When it is not kept, the newer
  // set's overlaps with every label are measured together (Profile::set_overlaps).
  iface::Overlap between(iface::Profile& p, const LabelSet& labels, const std::string& a, const std::string& b);
  // The set of every labelled summary (coverage, seed 004 sec. 3).
  iface::SummarySet& all(iface::Profile& p, const LabelSet& labels);
  // Forgets everything: the profile in force changed.
  void clear();

 private:
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
  struct PairOverlap {
    std::uint64_t a = 0, b = 0;  // the serials it was measured on
    iface::Overlap overlap;
    std::pair<std::uint64_t, std::uint64_t> serials() const { return {a, b}; }
  };
  // A pair of a changed label's set with another label's, not kept.
  struct Pending {
    std::pair<std::string, std::string> key;  // the names in order
    bool changed_first = false;               // the changed label's name comes first
    iface::SummarySet* other = nullptr;
    std::uint64_t other_serial = 0;
    // The serials of the pair, in the key's order, with the changed label's set of this serial.
    std::pair<std::uint64_t, std::uint64_t> serials(std::uint64_t changed) const {
      return changed_first ? std::pair{changed, other_serial} : std::pair{other_serial, changed};
    }
  };
  Measured& measured(iface::Profile& p, const LabelSet& labels, const std::string& label);
  // The overlaps not kept of the label's set with every other label's.
  void measure_pairs_of(iface::Profile& p, const LabelSet& labels, const std::string& label);
  // The changed set's overlaps with the pending pairs' other sets, in order.
  std::vector<iface::Overlap> overlaps_of_changed(iface::Profile& p, const Measured& changed,
                                                  const std::vector<Pending>& pending);
  // The one summary `members` adds to `earlier`, if it adds exactly one and keeps the rest.
  static std::optional<iface::Summary> one_added(std::span<const iface::Summary> earlier,
                                                 const std::vector<iface::Summary>& members);
  static bool same(const std::unique_ptr<iface::SummarySet>& set, const std::vector<iface::Summary>& members);

  std::map<std::string, Measured> sets_;
  std::map<std::pair<std::string, std::string>, PairOverlap> pairs_;
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
