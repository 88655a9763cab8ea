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

std::vector<ExtensionAmounts> ComparativeProfile::extension_amounts(Summary s, iface::End end) {
  const Record& r = record(s);
  auto sides = std::make_shared<SideExtensions>();
  sides->of = s;
  std::vector<ExtensionAmounts> out =
      merged(r.a ? a_.extension_amounts(*r.a, end) : std::vector<ExtensionAmounts>{},
             r.b ? b_.extension_amounts(*r.b, end) : std::vector<ExtensionAmounts>{}, sides.get());
  sides_of(end) = std::move(sides);
  return out;
}

// An absent side has no match of s, so none of s;..;x either.
std::vector<ExtensionAmounts> ComparativeProfile::gap_extensions(Summary s) {
  const Record r = record(s);
  return merged(r.a ? a_.gap_extensions(*r.a) : std::vector<ExtensionAmounts>{},
                r.b ? b_.gap_extensions(*r.b) : std::vector<ExtensionAmounts>{}, nullptr);
}

std::vector<ExtensionAmounts> ComparativeProfile::merged(std::vector<ExtensionAmounts> in_a,
                                                         std::vector<ExtensionAmounts> in_b,
                                                         SideExtensions* sides) const {
  std::sort(in_a.begin(), in_a.end(), by_name);
  std::sort(in_b.begin(), in_b.end(), by_name);
  std::vector<ExtensionAmounts> out;
  // A merge by name: each method once, with whichever sides list it.
  auto ia = in_a.begin(), ib = in_b.begin();
  while (ia != in_a.end() || ib != in_b.end()) {
    const bool take_a = ia != in_a.end() && (ib == in_b.end() || ia->method <= ib->method);
    const bool take_b = ib != in_b.end() && (ia == in_a.end() || ib->method <= ia->method);
    const std::string_view name = take_a ? ia->method : ib->method;
    const Amount cum = scaling_.difference(take_a ? ia->cum : 0, take_b ? ib->cum : 0);
    const Amount base = scaling_.difference(take_a ? ia->base : 0, take_b ? ib->base : 0);
    out.push_back({name, cum, base, static_cast<std::uint32_t>(out.size())});
    const std::optional<ExtensionAmounts> from_a = take_a ? std::optional(*ia++) : std::nullopt;
    const std::optional<ExtensionAmounts> from_b = take_b ? std::optional(*ib++) : std::nullopt;
    if (sides) {
      sides->a.push_back(from_a);
      sides->b.push_back(from_b);
    }
  }
  return out;
}

class ComparativeProfile::RunningUnion final : public iface::ExtensionUnion {
 public:
  RunningUnion(ComparativeProfile& profile, Summary s, iface::End end)
      : iface::ExtensionUnion(profile, s, end), profile_(profile) {
    const std::shared_ptr<const SideExtensions>& listed = profile.sides_of(end);
    if (!listed || listed->of != s) profile.extension_amounts(s, end);
    sides_ = profile.sides_of(end);
    const Record& r = profile.record(s);
    if (r.a) a_ = profile.a_.extension_union(*r.a, end);
    if (r.b) b_ = profile.b_.extension_union(*r.b, end);
  }

  // e.tag indexes the merged list extension_amounts made; checked against the name.
  void add(const ExtensionAmounts& e) override {
    const std::size_t i = e.tag;
    const auto& a = sides_->a;
    const auto& b = sides_->b;
    if (i >= a.size() || (a[i] ? a[i]->method : b[i]->method) != e.method) reject(e.method);
    if (a[i]) a_->add(*a[i]);
    if (b[i]) b_->add(*b[i]);
  }
  Amount total() override { return profile_.scaling_.difference(a_ ? a_->total() : 0, b_ ? b_->total() : 0); }

 private:
  ComparativeProfile& profile_;
  std::shared_ptr<const SideExtensions> sides_;   // kept: the profile's may move on
  std::unique_ptr<iface::ExtensionUnion> a_, b_;  // null for an absent side
};

std::unique_ptr<iface::ExtensionUnion> ComparativeProfile::extension_union(Summary s, iface::End end) {
  return std::make_unique<RunningUnion>(*this, s, end);
}

}  // namespace bn::comparative
