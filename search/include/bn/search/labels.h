#pragma once
// Labels (seed 004 sec. 2.3, "labeling command"): names the analyst gives to summaries. A label
// may mark several summaries and a summary may carry several labels. BOTTLENECKS does not
// interpret them; they are how the analyst asks for overlap and coverage.

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bn/iface/profile.h"

namespace bn::search {

class LabelSet {
 public:
  // Returns false when s already carries the label.
  bool add(const std::string& name, iface::Summary s);
  // Returns false when s does not carry the label. A label left with no summary disappears.
  bool remove(const std::string& name, iface::Summary s);

  // Labels in name order, each with its summaries in the order they were labelled.
  const std::map<std::string, std::vector<iface::Summary>>& all() const { return labels_; }
  std::vector<std::string> labels_of(iface::Summary s) const;
  // Every labelled summary once, in label order.
  std::vector<iface::Summary> all_summaries() const;
  bool empty() const { return labels_.empty(); }

 private:
  std::map<std::string, std::vector<iface::Summary>> labels_;
  // Which summaries carry which label, so labelling or loading S summaries costs O(S log S),
  // not a scan of the label's list per summary (O(S^2): a label of 300,000 took 8 s to load).
  std::set<std::pair<std::string, iface::Summary>> pairs_;
};

}  // namespace bn::search
