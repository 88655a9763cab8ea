#include "bn/comparative/comparative_profile.h"

#include <algorithm>
#include <iterator>

#include "bn/iface/error.h"
#include "bn/iface/overlap.h"

namespace bn::comparative {
namespace {

using iface::Amount;
using iface::Summary;

iface::MetricInfo combined_metric(iface::Profile& a, iface::Profile& b, bool force, std::vector<std::string>& notes) {
  const iface::MetricInfo ma = a.metric();
  const iface::MetricInfo mb = b.metric();
  iface::MetricInfo result = ma;
  // One sample is one denominator only when neither side says otherwise (a normalised view).
  result.is_sample_count = ma.is_sample_count && mb.is_sample_count && ma.sample == 0 && mb.sample == 0;
  result.sample = 0;
  if (ma.metric == mb.metric && ma.unit == mb.unit) return result;
  const std::string what = "profile A measures " + ma.metric + " (" + ma.unit + ") but profile B measures " +
                           mb.metric + " (" + mb.unit + ")";
  if (!force) throw MetricMismatch("cannot compare profiles: " + what);
  notes.push_back("forced comparison: " + what);
  result.metric = ma.metric + " minus " + mb.metric;
  if (ma.unit != mb.unit) result.unit = ma.unit + " minus " + mb.unit;
  return result;
}

void note_if_empty(iface::Profile& p, const char* side, std::vector<std::string>& notes) {
  if (p.total() == 0)
    notes.push_back(std::string("profile ") + side + " is empty (total 0): every sequence counts 0 there");
}

// Both inputs are sorted by name (the interface's promise), so the union is one merge.
std::vector<std::string_view> union_of(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<std::string_view> merged;
  merged.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged));
  return merged;
}

}  // namespace

ComparativeProfile::ComparativeProfile(iface::Profile& a, iface::Profile& b, CompareOptions options)
    : a_(a),
      b_(b),
      metric_(combined_metric(a, b, options.force, notes_)),
      scaling_(options.normalization, a.denominator(), b.denominator(), a.total(), b.total()) {
  note_if_empty(a_, "A", notes_);
  note_if_empty(b_, "B", notes_);
}

std::size_t ComparativeProfile::CallsHash::operator()(const std::vector<NameId>& calls) const {
  std::size_t h = calls.size();
  for (const NameId id : calls) h = (h ^ id) * 0x100000001b3ULL;
  return h;
}

const ComparativeProfile::Record& ComparativeProfile::record(Summary s) const {
  if (s.id >= records_.size())
    throw Error("comparative profile: summary handle " + std::to_string(s.id) + " does not belong to this profile");
  return records_[s.id];
}

ComparativeProfile::NameId ComparativeProfile::name_id(std::string_view side_owned_name) {
  const auto [it, inserted] = name_ids_.try_emplace(side_owned_name, static_cast<NameId>(names_.size()));
  if (inserted) names_.push_back(side_owned_name);
  return it->second;
}

std::optional<Summary> ComparativeProfile::intern(std::optional<Summary> a, std::optional<Summary> b) {
  if (!a && !b) return std::nullopt;
  // Names are taken from a side's own path so the views outlive the caller's arguments.
  const std::vector<std::string_view> path = a ? a_.path_of(*a) : b_.path_of(*b);
  std::vector<NameId> calls;
  calls.reserve(path.size());
  for (const std::string_view name : path) calls.push_back(name_id(name));
  // Only a sequence with a gap or an aspect shows ".." or ":name"; its key says what it means.
  const bool maybe_pattern = std::any_of(
      path.begin(), path.end(), [](std::string_view name) { return name == iface::kGapText || name.starts_with(':'); });
  if (maybe_pattern) {
    const iface::CallPattern pattern = a ? a_.pattern_of(*a) : b_.pattern_of(*b);
    if (!pattern.is_plain()) {
      const auto [it, inserted] =
          pattern_index_.try_emplace(pattern.key(), static_cast<std::uint32_t>(records_.size()));
      if (inserted) records_.push_back(Record{std::move(calls), a, b, true});
      return Summary{it->second};
    }
  }
  const auto [it, inserted] = index_.try_emplace(calls, static_cast<std::uint32_t>(records_.size()));
  if (inserted) records_.push_back(Record{std::move(calls), a, b});
  return Summary{it->second};
}

std::optional<Summary> ComparativeProfile::pattern_summary(const iface::CallPattern& p) {
  if (p.is_plain()) return iface::Profile::pattern_summary(p);
  return intern(a_.pattern_summary(p), b_.pattern_summary(p));
}

iface::CallPattern ComparativeProfile::pattern_of(Summary s) {
  const Record& r = record(s);
  return r.a ? a_.pattern_of(*r.a) : b_.pattern_of(*r.b);
}

std::vector<std::string_view> ComparativeProfile::path_of(Summary s) {
  const Record& r = record(s);
  std::vector<std::string_view> path;
  path.reserve(r.calls.size());
  for (const NameId id : r.calls) path.push_back(names_[id]);
  return path;
}

std::vector<Summary> ComparativeProfile::initial_summaries() {
  if (!initial_) {
    std::vector<std::string_view> methods;
    for (iface::Profile* side : {&a_, &b_})
      for (const Summary s : side->initial_summaries()) methods.push_back(side->path_of(s).front());
    std::sort(methods.begin(), methods.end());
    methods.erase(std::unique(methods.begin(), methods.end()), methods.end());
    initial_.emplace();
    for (const std::string_view m : methods) initial_->push_back(*method_summary(m));
  }
  return *initial_;
}

std::optional<Summary> ComparativeProfile::method_summary(std::string_view method) {
  return intern(a_.method_summary(method), b_.method_summary(method));
}

std::vector<std::string_view> ComparativeProfile::top_extensions(Summary s) {
  const Record& r = record(s);
  return union_of(r.a ? a_.top_extensions(*r.a) : std::vector<std::string_view>{},
                  r.b ? b_.top_extensions(*r.b) : std::vector<std::string_view>{});
}

std::vector<std::string_view> ComparativeProfile::bottom_extensions(Summary s) {
  const Record& r = record(s);
  return union_of(r.a ? a_.bottom_extensions(*r.a) : std::vector<std::string_view>{},
                  r.b ? b_.bottom_extensions(*r.b) : std::vector<std::string_view>{});
}

// An absent side stays absent: a sequence with no root has no extension with a root.
std::optional<Summary> ComparativeProfile::extend_top(Summary s, std::string_view m) {
  const Record r = record(s);  // copied: interning may grow records_
  return intern(r.a ? a_.extend_top(*r.a, m) : std::nullopt, r.b ? b_.extend_top(*r.b, m) : std::nullopt);
}

std::optional<Summary> ComparativeProfile::extend_bottom(Summary s, std::string_view m) {
  const Record r = record(s);
  return intern(r.a ? a_.extend_bottom(*r.a, m) : std::nullopt, r.b ? b_.extend_bottom(*r.b, m) : std::nullopt);
}

std::optional<Summary> ComparativeProfile::trimmed(Summary s, iface::End end) {
  const Record r = record(s);
  if (r.pattern) {
    // A side without the sequence may still have the shorter one: ask both sides anew.
    const auto shorter = iface::trimmed(pattern_of(s), end);
    return shorter ? pattern_summary(*shorter) : std::nullopt;
  }
  if (r.calls.size() <= 1) return std::nullopt;
  const bool top = end == iface::End::top;
  std::vector<NameId> calls(r.calls.begin() + (top ? 1 : 0), r.calls.end() - (top ? 0 : 1));
  if (const auto it = index_.find(calls); it != index_.end()) return Summary{it->second};
  std::vector<std::string_view> path;
  for (const NameId id : calls) path.push_back(names_[id]);
  const auto side = [&](iface::Profile& p, std::optional<Summary> untrimmed) -> std::optional<Summary> {
    if (untrimmed) return p.trim(*untrimmed, end);
    return iface::summary_for_path(p, path);
  };
  return intern(side(a_, r.a), side(b_, r.b));
}

std::optional<Summary> ComparativeProfile::trim_top(Summary s) { return trimmed(s, iface::End::top); }

std::optional<Summary> ComparativeProfile::trim_bottom(Summary s) { return trimmed(s, iface::End::bottom); }

Amount ComparativeProfile::base_of(Summary s) {
  const Record& r = record(s);
  return scaling_.difference(r.a ? a_.base_of(*r.a) : 0, r.b ? b_.base_of(*r.b) : 0);
}

Amount ComparativeProfile::cum_of(Summary s) {
  const Record& r = record(s);
  return scaling_.difference(r.a ? a_.cum_of(*r.a) : 0, r.b ? b_.cum_of(*r.b) : 0);
}

ComparativeProfile::SideSets ComparativeProfile::split(std::span<const Summary> S) const {
  SideSets sets;
  for (const Summary s : S) {
    const Record& r = record(s);
    if (r.a) sets.a.push_back(*r.a);
    if (r.b) sets.b.push_back(*r.b);
  }
  return sets;
}

// Each side's total over the present sides of S: a side union never reaches a sequence that
// has no root there, so dropping absent sides loses nothing.
Amount ComparativeProfile::total_base_of(std::span<const Summary> S) {
  const SideSets sets = split(S);
  return scaling_.difference(a_.total_base_of(sets.a), b_.total_base_of(sets.b));
}

Amount ComparativeProfile::total_cum_of(std::span<const Summary> S) {
  const SideSets sets = split(S);
  return scaling_.difference(a_.total_cum_of(sets.a), b_.total_cum_of(sets.b));
}

Amount ComparativeProfile::total() { return scaling_.difference(a_.total(), b_.total()); }

iface::Profile::PercentBase ComparativeProfile::percent_base() {
  if (percent_base_reason().empty()) return {total(), "total"};
  return {scaling_.scale_a(a_.total()), "A"};
}

std::string ComparativeProfile::percent_base_reason() {
  const Amount difference = total();
  if (difference == 0) return "the difference sums to 0";
  if (const auto n = total_noise(); n && !n->significant())
    return "the total difference is within sampling noise (|z| = " + n->z_text() + " < " +
           std::to_string(iface::kSignificantZ) + ")";
  // Near zero: |A - B| below 1% of |A|, both over the common denominator.
  if (iface::abs_amount(difference) * 100 < iface::abs_amount(scaling_.scale_a(a_.total())))
    return "the total difference is near zero (under 1% of A's total)";
  return {};
}

std::optional<iface::Noise> ComparativeProfile::noise_of(Amount a, Amount b) {
  if (!metric_.is_sample_count) return std::nullopt;
  return iface::difference_noise(iface::to_rational(a, a_.denominator()), iface::to_rational(b, b_.denominator()),
                                 scaling_.factor());
}

std::optional<iface::Noise> ComparativeProfile::noise(Summary s) {
  const Record& r = record(s);
  return noise_of(r.a ? a_.cum_of(*r.a) : 0, r.b ? b_.cum_of(*r.b) : 0);
}

std::optional<iface::Noise> ComparativeProfile::total_noise() { return noise_of(a_.total(), b_.total()); }

std::optional<iface::SideBySide> ComparativeProfile::sides(Summary s) {
  const Record& r = record(s);
  iface::SideBySide v;
  v.in_a = r.a.has_value();
  v.in_b = r.b.has_value();
  if (r.a) {
    v.a_cum = scaling_.scale_a(a_.cum_of(*r.a));
    v.a_base = scaling_.scale_a(a_.base_of(*r.a));
  }
  if (r.b) {
    v.b_cum = scaling_.scale_b(b_.cum_of(*r.b));
    v.b_base = scaling_.scale_b(b_.base_of(*r.b));
  }
  v.a_total = scaling_.scale_a(a_.total());
  v.b_total = scaling_.scale_b(b_.total());
  return v;
}

}  // namespace bn::comparative
