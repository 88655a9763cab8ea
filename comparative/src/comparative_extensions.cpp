// Extensions of a comparative summary measured and united side by side (seed 004 sec. 2.2: A
// minus B by call sequence). The extension m of a sequence exists in a side exactly when that
// side lists m for its own summary of the sequence, and total_cum_of of comparative summaries is
// the difference of the sides' unions, so both come from the sides' own fast paths.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "bn/comparative/comparative_profile.h"

namespace bn::comparative {

using iface::Amount;
using iface::ExtensionAmounts;
using iface::Summary;

namespace {

bool by_name(const ExtensionAmounts& x, const ExtensionAmounts& y) { return x.method < y.method; }

}  // namespace

std::vector<std::vector<ExtensionAmounts>> ComparativeProfile::run_extensions(Summary s,
                                                                              std::optional<iface::End> end) {
  const RunSummaries r = record(s).runs;
  std::vector<std::vector<ExtensionAmounts>> listed(runs_.size());
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (r[i]) listed[i] = end ? runs_[i]->extension_amounts(*r[i], *end) : runs_[i]->gap_extensions(*r[i]);
  return listed;
}

std::vector<ExtensionAmounts> ComparativeProfile::extension_amounts(Summary s, iface::End end) {
  auto sides = std::make_shared<SideExtensions>();
  sides->of = s;
  std::vector<ExtensionAmounts> out = merged(run_extensions(s, end), sides.get());
  sides_of(end) = std::move(sides);
  return out;
}

// An absent run has no match of s, so none of s;..;x either.
std::vector<ExtensionAmounts> ComparativeProfile::gap_extensions(Summary s) {
  return merged(run_extensions(s, std::nullopt), nullptr);
}

std::vector<ExtensionAmounts> ComparativeProfile::merged(std::vector<std::vector<ExtensionAmounts>> listed,
                                                         SideExtensions* sides) const {
  for (auto& run : listed) std::sort(run.begin(), run.end(), by_name);
  std::vector<std::size_t> next(listed.size(), 0);
  std::vector<ExtensionAmounts> out;
  // A merge by name: each method once, with whichever runs list it.
  for (;;) {
    std::optional<std::string_view> name;
    for (std::size_t i = 0; i < listed.size(); ++i)
      if (next[i] < listed[i].size() && (!name || listed[i][next[i]].method < *name)) name = listed[i][next[i]].method;
    if (!name) return out;
    RunExtension from(listed.size());
    RunAmounts cum(listed.size(), 0), base(listed.size(), 0);
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (next[i] >= listed[i].size() || listed[i][next[i]].method != *name) continue;
      from[i] = listed[i][next[i]++];
      cum[i] = from[i]->cum;
      base[i] = from[i]->base;
    }
    out.push_back({*name, combined(cum), combined(base), static_cast<std::uint32_t>(out.size())});
    if (sides) sides->listed.push_back(std::move(from));
  }
}

class ComparativeProfile::RunningUnion final : public iface::ExtensionUnion {
 public:
  RunningUnion(ComparativeProfile& profile, Summary s, iface::End end)
      : iface::ExtensionUnion(profile, s, end), profile_(profile) {
    const std::shared_ptr<const SideExtensions>& listed = profile.sides_of(end);
    if (!listed || listed->of != s) profile.extension_amounts(s, end);
    sides_ = profile.sides_of(end);
    const RunSummaries r = profile.record(s).runs;
    for (std::size_t i = 0; i < r.size(); ++i)
      runs_.push_back(r[i] ? profile.runs_[i]->extension_union(*r[i], end) : nullptr);
  }

  // e.tag indexes the merged list extension_amounts made; checked against the name.
  void add(const ExtensionAmounts& e) override {
    const std::size_t i = e.tag;
    if (i >= sides_->listed.size()) reject(e.method);
    const RunExtension& listed = sides_->listed[i];
    const auto first = std::find_if(listed.begin(), listed.end(), [](const auto& x) { return x.has_value(); });
    if (first == listed.end() || (*first)->method != e.method) reject(e.method);
    for (std::size_t run = 0; run < listed.size(); ++run)
      if (listed[run]) runs_[run]->add(*listed[run]);
  }
  Amount total() override {
    RunAmounts totals;
    for (const auto& run : runs_) totals.push_back(run ? run->total() : 0);
    return profile_.combined(totals);
  }

 private:
  ComparativeProfile& profile_;
  std::shared_ptr<const SideExtensions> sides_;               // kept: the profile's may move on
  std::vector<std::unique_ptr<iface::ExtensionUnion>> runs_;  // null for an absent run
};

std::unique_ptr<iface::ExtensionUnion> ComparativeProfile::extension_union(Summary s, iface::End end) {
  return std::make_unique<RunningUnion>(*this, s, end);
}

}  // namespace bn::comparative
