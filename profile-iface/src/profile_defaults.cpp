// The exact defaults of the profile interface's optional fast paths (profile.h): every
// extension built as a summary and measured, the union asked of total_cum_of, so a backend
// without a faster way still ranks and zooms exactly (seed 004 sec. 2.3).
#include <string>

#include "bn/base/error.h"
#include "bn/base/interruption.h"
#include "bn/iface/overlap.h"
#include "bn/iface/profile.h"
#include "bn/iface/refinements.h"

namespace bn::iface {

std::vector<ExtensionAmounts> Profile::extension_amounts(Summary s, End end) {
  std::vector<ExtensionAmounts> out;
  for (std::string_view m : extensions(s, end))
    if (const auto t = extend(s, end, m)) out.push_back({m, cum_of(*t), base_of(*t)});
  return out;
}

std::vector<std::string_view> Profile::top_extensions_up_to(Summary s, std::size_t at_most,
                                                            std::string_view other_than) {
  std::vector<std::string_view> out = top_extensions(s);
  std::erase(out, other_than);
  if (out.size() > at_most) out.resize(at_most);
  return out;
}

void ExtensionUnion::add(const ExtensionAmounts& e) {
  const auto t = built(e.method);
  if (!t) reject(e.method);
  added_.push_back(*t);  // total_cum_of counts a set: a repeat adds nothing
}

std::optional<Summary> ExtensionUnion::built(std::string_view m) { return profile_.extend(s_, end_, m); }

void ExtensionUnion::reject(std::string_view m) const {
  throw Error("'" + std::string(m) + "' is not a " + kind_ + " of the summary");
}

std::unique_ptr<ExtensionUnion> Profile::gap_extension_union(Summary s) {
  return std::make_unique<BuiltRefinementUnion>(
      *this, s, "gap extension",
      [this, p = pattern_of(s)](std::string_view m) { return pattern_summary(extended_through_gap(p, m)); });
}

std::unique_ptr<ExtensionUnion> Profile::split_union(Summary s, std::size_t gap) {
  return std::make_unique<BuiltRefinementUnion>(
      *this, s, "caller to split at",
      [this, gap, p = pattern_of(s)](std::string_view m) { return pattern_summary(split_at(p, gap, m)); });
}

Amount ExtensionUnion::total() { return profile_.total_cum_of(added_); }

std::vector<ExtensionAmounts> BuildingWalk::amounts() { return profile_.extension_amounts(reached_, end_); }

void BuildingWalk::extend(std::string_view m) {
  const auto t = profile_.extend(reached_, end_, m);
  if (!t) throw Error("'" + std::string(m) + "' is not a " + to_string(end_) + " extension of the summary");
  reached_ = *t;
}

std::vector<Overlap> Profile::overlaps(Summary s, std::span<SummarySet* const> sets) {
  std::vector<Overlap> out;
  for (SummarySet* set : sets) out.push_back(set->overlap(s));
  return out;
}

std::vector<Overlap> Profile::set_overlaps(SummarySet& set, std::span<SummarySet* const> others) {
  std::vector<Overlap> out;
  for (SummarySet* other : others) out.push_back(set.overlap(*other));
  return out;
}

std::vector<SetPairOverlap> Profile::pair_overlaps(std::span<SummarySet* const> sets) {
  std::vector<SetPairOverlap> out;
  for (std::size_t i = 0; i + 1 < sets.size(); ++i) {
    base::step("labels' overlaps", i, sets.size());
    const std::vector<Overlap> with_later = set_overlaps(*sets[i], sets.subspan(i + 1));
    for (std::size_t k = 0; k < with_later.size(); ++k)
      if (with_later[k] != Overlap{}) out.push_back({i, i + 1 + k, with_later[k]});
  }
  return out;
}

Amount SummarySet::total_cum() { return profile_.total_cum_of(members_); }

Amount SummarySet::total_base() { return profile_.total_base_of(members_); }

Overlap SummarySet::overlap(Summary s) {
  return {cum_overlap(profile_, s, members_), base_overlap(profile_, s, members_)};
}

Overlap SummarySet::overlap(SummarySet& other) {
  std::vector<Summary> both = members_;
  both.insert(both.end(), other.members_.begin(), other.members_.end());
  return {total_cum() + other.total_cum() - profile_.total_cum_of(both),
          total_base() + other.total_base() - profile_.total_base_of(both)};
}

std::optional<Summary> Profile::pattern_summary(const CallPattern& p) {
  check_call_pattern(p);
  if (!p.is_plain()) throw Error("this profile cannot search call sequences with gaps or aspects ('" + p.text() + "')");
  std::vector<std::string_view> methods;
  for (const PatternElement& e : p.elements) methods.push_back(e.name);
  return path_summary(methods);
}

std::optional<Summary> Profile::path_summary(std::span<const std::string_view> path) {
  if (path.empty()) return std::nullopt;
  std::optional<Summary> s = method_summary(path.front());
  for (std::size_t i = 1; s && i < path.size(); ++i) s = extend_bottom(*s, path[i]);
  return s;
}

std::vector<ExtensionAmounts> Profile::gap_extensions(Summary s) {
  const CallPattern p = pattern_of(s);
  std::vector<ExtensionAmounts> out;
  for (const Summary m : initial_summaries()) {
    const std::string_view method = path_of(m).front();
    if (const auto t = pattern_summary(extended_through_gap(p, method)))
      out.push_back({method, cum_of(*t), base_of(*t)});
  }
  return out;
}

}  // namespace bn::iface
