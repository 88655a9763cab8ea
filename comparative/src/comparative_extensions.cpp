// Extensions of a comparative summary measured and united side by side (seed 004 sec. 2.2: A
// minus B by call sequence). The extension m of a sequence exists in a side exactly when that
// side lists m for its own summary of the sequence, and total_cum_of of comparative summaries is
// the difference of the sides' unions, so both come from the sides' own fast paths.
#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
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
  each_run([&](std::size_t i) {
    if (r[i]) listed[i] = end ? runs_[i]->extension_amounts(*r[i], *end) : runs_[i]->gap_extensions(*r[i]);
  });
  return listed;
}

std::vector<ExtensionAmounts> ComparativeProfile::measured_extensions(Summary s, iface::End end) {
  auto sides = std::make_shared<SideExtensions>();
  sides->of = s;
  std::vector<ExtensionAmounts> out = merged(run_extensions(s, end), sides.get());
  sides_of(end) = std::move(sides);
  return out;
}

std::vector<ExtensionAmounts> ComparativeProfile::extension_amounts(Summary s, iface::End end) {
  const auto key = std::pair(s.id, end);
  if (const auto kept = kept_extensions_.find(key); kept != kept_extensions_.end()) return kept->second;
  std::vector<ExtensionAmounts> out = measured_extensions(s, end);
  if (kept_count_ + out.size() > kKeptExtensions) {
    kept_extensions_.clear();
    kept_count_ = 0;
  }
  kept_count_ += out.size();
  kept_extensions_.emplace(key, out);
  return out;
}

// An absent run has no match of s, so none of s;..;x either.
std::vector<ExtensionAmounts> ComparativeProfile::gap_extensions(Summary s) {
  return merged(run_extensions(s, std::nullopt), nullptr);
}

std::vector<ExtensionAmounts> ComparativeProfile::merged(std::vector<std::vector<ExtensionAmounts>> listed,
                                                         SideExtensions* sides) const {
  // A backend may list in name order already (the tree backend does): then checking is all.
  for (auto& run : listed)
    if (!std::is_sorted(run.begin(), run.end(), by_name)) std::sort(run.begin(), run.end(), by_name);
  std::vector<std::size_t> next(listed.size(), 0);
  std::vector<ExtensionAmounts> out;
  RunAmounts cum(listed.size()), base(listed.size());
  // Whether each run's next extension is the one being merged. The runs of one program mostly
  // list the same names, so each run's head is compared with the least name so far once, three
  // ways: a search for the least with `<` followed by a test for equality read each equal name
  // twice.
  std::vector<char> listing(listed.size());
  // A merge by name: each method once, with whichever runs list it.
  for (;;) {
    std::optional<std::string_view> name;
    for (std::size_t i = 0; i < listed.size(); ++i) {
      listing[i] = 0;
      if (next[i] == listed[i].size()) continue;
      const std::string_view head = listed[i][next[i]].method;
      const int order = name ? head.compare(*name) : -1;
      if (order < 0) {
        std::fill(listing.begin(), listing.begin() + static_cast<std::ptrdiff_t>(i), 0);
        name = head;
      }
      listing[i] = order <= 0 ? 1 : 0;
    }
    if (!name) break;
    for (std::size_t i = 0; i < listed.size(); ++i) {
      if (sides) sides->at.push_back(listing[i] ? static_cast<std::uint32_t>(next[i]) : SideExtensions::kAbsent);
      cum[i] = listing[i] ? listed[i][next[i]].cum : 0;
      base[i] = listing[i] ? listed[i][next[i]++].base : 0;
    }
    out.push_back({*name, combined(cum), combined(base), static_cast<std::uint32_t>(out.size())});
  }
  if (sides) sides->runs = std::move(listed);
  return out;
}

class ComparativeProfile::RunningUnion final : public iface::ExtensionUnion {
 public:
  RunningUnion(ComparativeProfile& profile, Summary s, iface::End end)
      : iface::ExtensionUnion(profile, s, end), profile_(profile) {
    const std::shared_ptr<const SideExtensions>& listed = profile.sides_of(end);
    if (!listed || listed->of != s) profile.measured_extensions(s, end);
    sides_ = profile.sides_of(end);
    const RunSummaries r = profile.record(s).runs;
    for (std::size_t i = 0; i < r.size(); ++i)
      runs_.push_back(r[i] ? profile.runs_[i]->extension_union(*r[i], end) : nullptr);
  }

  // e.tag indexes the merged list extension_amounts made; checked against the name.
  void add(const ExtensionAmounts& e) override {
    const std::size_t runs = sides_->runs.size();
    if (e.tag >= sides_->at.size() / runs) reject(e.method);
    const std::span<const std::uint32_t> at(sides_->at.data() + std::size_t{e.tag} * runs, runs);
    const auto first = std::find_if(at.begin(), at.end(), [](std::uint32_t i) { return i != SideExtensions::kAbsent; });
    if (first == at.end() || sides_->runs[static_cast<std::size_t>(first - at.begin())][*first].method != e.method)
      reject(e.method);
    for (std::size_t run = 0; run < runs; ++run)
      if (at[run] != SideExtensions::kAbsent) runs_[run]->add(sides_->runs[run][at[run]]);
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

// Zooming's walk side by side: each run walks its own summary of the sequence (the tree backend
// builds none of the summaries passed), and a run that does not list a step's method drops out,
// as extend_top/extend_bottom leave it absent. The comparative summary is interned where the
// walk stops.
class ComparativeProfile::RunWalks final : public iface::ExtensionWalk {
 public:
  RunWalks(ComparativeProfile& profile, Summary s, iface::End end) : profile_(profile), start_(s), end_(end) {
    const RunSummaries r = profile.record(s).runs;
    for (std::size_t i = 0; i < r.size(); ++i)
      walks_.push_back(r[i] ? profile.runs_[i]->extension_walk(*r[i], end) : nullptr);
  }

  // Before the first step, as extension_amounts measures the start (and keeps it for the zoom step
  // that follows).
  std::vector<ExtensionAmounts> amounts() override {
    return moved_ ? profile_.merged(listed(), nullptr) : profile_.extension_amounts(start_, end_);
  }

  void extend(std::string_view m) override {
    const std::vector<std::vector<ExtensionAmounts>>& runs = listed();
    std::vector<char> lists(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
      lists[i] =
          std::any_of(runs[i].begin(), runs[i].end(), [&](const ExtensionAmounts& e) { return e.method == m; }) ? 1 : 0;
    if (std::find(lists.begin(), lists.end(), 1) == lists.end())
      throw Error("'" + std::string(m) + "' is not a " + iface::to_string(end_) + " extension of the summary");
    profile_.each_run([&](std::size_t i) {
      if (!lists[i]) walks_[i].reset();
      if (walks_[i]) walks_[i]->extend(m);
    });
    listed_.reset();
    moved_ = true;
  }

  Summary summary() override {
    if (!moved_) return start_;
    RunSummaries runs;
    for (const auto& walk : walks_) runs.push_back(walk ? std::optional(walk->summary()) : std::nullopt);
    return *profile_.intern(runs);  // the walk starts where a run is present, and keeps one
  }

 private:
  // Each run's extensions of the summary reached, empty where it is absent; listed once a step.
  const std::vector<std::vector<ExtensionAmounts>>& listed() {
    if (!listed_) {
      listed_.emplace(walks_.size());
      profile_.each_run([&](std::size_t i) {
        if (walks_[i]) (*listed_)[i] = walks_[i]->amounts();
      });
    }
    return *listed_;
  }

  ComparativeProfile& profile_;
  Summary start_;
  iface::End end_;
  bool moved_ = false;
  std::vector<std::unique_ptr<iface::ExtensionWalk>> walks_;  // null for an absent run
  std::optional<std::vector<std::vector<ExtensionAmounts>>> listed_;
};

std::unique_ptr<iface::ExtensionWalk> ComparativeProfile::extension_walk(Summary s, iface::End end) {
  return std::make_unique<RunWalks>(*this, s, end);
}

}  // namespace bn::comparative
