#include "bn/comparative/comparative_profile.h"

#include <algorithm>
#include <iterator>

#include "bn/base/error.h"
#include "bn/iface/overlap.h"
#include "bn/iface/units.h"

namespace bn::comparative {
namespace {

using iface::Amount;
using iface::Summary;

std::string metric_text(const iface::MetricInfo& m) { return m.metric + " (" + m.unit + ")"; }

// The metric of one side's runs, which must all measure the same: their mean is meaningless
// otherwise, so this is refused even when the sides may differ.
iface::MetricInfo side_metric(std::span<iface::Profile* const> runs, bool side_b) {
  iface::MetricInfo m = runs.front()->metric();
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const iface::MetricInfo other = runs[i]->metric();
    if (other.metric != m.metric || other.unit != m.unit)
      throw RunMismatch(std::string("cannot average the runs of ") + (side_b ? "B" : "A") + ": run 1 measures " +
                            metric_text(m) + " but run " + std::to_string(i + 1) + " measures " + metric_text(other),
                        side_b);
    // One sample is one denominator only when no run says otherwise (a normalised view).
    m.is_sample_count = m.is_sample_count && other.is_sample_count && other.sample == 0;
  }
  return m;
}

iface::MetricInfo combined_metric(std::span<iface::Profile* const> a_runs, std::span<iface::Profile* const> b_runs,
                                  bool force, std::vector<std::string>& notes) {
  if (a_runs.empty() || b_runs.empty()) throw Error("comparative profile: a side has no runs");
  const iface::MetricInfo ma = side_metric(a_runs, false);
  const iface::MetricInfo mb = side_metric(b_runs, true);
  iface::MetricInfo result = ma;
  // One sample is one denominator only when neither side says otherwise (a normalised view).
  result.is_sample_count = ma.is_sample_count && mb.is_sample_count && ma.sample == 0 && mb.sample == 0;
  result.sample = 0;
  if (ma.metric == mb.metric && ma.unit == mb.unit) return result;
  const std::string what = "profile A measures " + metric_text(ma) + " but profile B measures " + metric_text(mb);
  if (!force) throw MetricMismatch("cannot compare profiles: " + what);
  notes.push_back("forced comparison: " + what);
  result.metric = ma.metric + " minus " + mb.metric;
  if (ma.unit != mb.unit) result.unit = ma.unit + " minus " + mb.unit;
  return result;
}

// A side is empty when all its runs are.
void note_if_empty(std::span<iface::Profile* const> runs, const char* side, std::vector<std::string>& notes) {
  for (iface::Profile* run : runs)
    if (run->total() != 0) return;
  notes.push_back(std::string("profile ") + side + " is empty (total 0): every sequence counts 0 there");
}

std::vector<RunFacts> facts_of(std::span<iface::Profile* const> runs) {
  std::vector<RunFacts> facts;
  for (iface::Profile* run : runs) facts.push_back({run->denominator(), run->total()});
  return facts;
}

// Both inputs are sorted by name (the interface's promise), so the union is one merge.
std::vector<std::string_view> union_of(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<std::string_view> merged;
  merged.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged));
  return merged;
}

}  // namespace

ComparativeProfile::ComparativeProfile(std::vector<iface::Profile*> a_runs, std::vector<iface::Profile*> b_runs,
                                       const CompareOptions& options)
    : runs_(a_runs),
      a_count_(a_runs.size()),
      metric_(combined_metric(a_runs, b_runs, options.force, notes_)),
      scaling_(options.normalization, facts_of(a_runs), facts_of(b_runs)) {
  runs_.insert(runs_.end(), b_runs.begin(), b_runs.end());
  std::vector<iface::Profile*> distinct = runs_;
  std::sort(distinct.begin(), distinct.end());
  runs_in_parallel_ = std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end();
  note_if_empty(a_runs, "A", notes_);
  note_if_empty(b_runs, "B", notes_);
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

template <class Measure>
ComparativeProfile::RunAmounts ComparativeProfile::per_run(const Record& r, Measure measure) {
  RunAmounts amounts(runs_.size(), 0);
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (r.runs[i]) amounts[i] = measure(*runs_[i], *r.runs[i]);
  return amounts;
}

Amount ComparativeProfile::combined(const RunAmounts& amounts) const {
  const std::span<const Amount> all(amounts.data(), amounts.size());
  return scaling_.difference(all.first(a_count_), all.subspan(a_count_));
}

ComparativeProfile::NameId ComparativeProfile::name_id(std::string_view side_owned_name) {
  const auto [it, inserted] = name_ids_.try_emplace(side_owned_name, static_cast<NameId>(names_.size()));
  if (inserted) names_.push_back(side_owned_name);
  return it->second;
}

std::optional<Summary> ComparativeProfile::intern(const RunSummaries& runs) {
  const auto present = std::find_if(runs.begin(), runs.end(), [](const auto& s) { return s.has_value(); });
  if (present == runs.end()) return std::nullopt;
  iface::Profile& first = *runs_[static_cast<std::size_t>(present - runs.begin())];
  // Names are taken from a run's own path so the views outlive the caller's arguments.
  const std::vector<std::string_view> path = first.path_of(**present);
  std::vector<NameId> calls;
  calls.reserve(path.size());
  for (const std::string_view name : path) calls.push_back(name_id(name));
  // Only a sequence with a gap or an aspect shows ".." or ":name"; its key says what it means.
  const bool maybe_pattern = std::any_of(
      path.begin(), path.end(), [](std::string_view name) { return name == iface::kGapText || name.starts_with(':'); });
  if (maybe_pattern) {
    const iface::CallPattern pattern = first.pattern_of(**present);
    if (!pattern.is_plain()) {
      const auto [it, inserted] =
          pattern_index_.try_emplace(pattern.key(), static_cast<std::uint32_t>(records_.size()));
      if (inserted) records_.push_back(Record{std::move(calls), runs, true});
      return Summary{it->second};
    }
  }
  const auto [it, inserted] = index_.try_emplace(calls, static_cast<std::uint32_t>(records_.size()));
  if (inserted) records_.push_back(Record{std::move(calls), runs});
  return Summary{it->second};
}

std::optional<Summary> ComparativeProfile::pattern_summary(const iface::CallPattern& p) {
  if (p.is_plain()) return iface::Profile::pattern_summary(p);
  RunSummaries runs;
  for (iface::Profile* run : runs_) runs.push_back(run->pattern_summary(p));
  return intern(runs);
}

iface::CallPattern ComparativeProfile::pattern_of(Summary s) {
  const Record& r = record(s);
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (r.runs[i]) return runs_[i]->pattern_of(*r.runs[i]);
  throw Error("comparative profile: a summary present in no run");
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
    std::vector<std::vector<std::string_view>> of_run(runs_.size());
    each_run([&](std::size_t i) {
      for (const Summary s : runs_[i]->initial_summaries()) of_run[i].push_back(runs_[i]->path_of(s).front());
    });
    std::vector<std::string_view> methods;
    for (const auto& listed : of_run) methods.insert(methods.end(), listed.begin(), listed.end());
    std::sort(methods.begin(), methods.end());
    methods.erase(std::unique(methods.begin(), methods.end()), methods.end());
    // Each run's summary of every method (its method index), run by run in parallel, then interned.
    std::vector<std::vector<std::optional<Summary>>> summaries(runs_.size());
    each_run([&](std::size_t i) {
      summaries[i].reserve(methods.size());
      for (const std::string_view m : methods) summaries[i].push_back(runs_[i]->method_summary(m));
    });
    initial_.emplace();
    for (std::size_t k = 0; k < methods.size(); ++k) {
      RunSummaries runs;
      for (const auto& of_method : summaries) runs.push_back(of_method[k]);
      initial_->push_back(*intern(runs));
    }
  }
  return *initial_;
}

std::optional<Summary> ComparativeProfile::method_summary(std::string_view method) {
  RunSummaries runs;
  for (iface::Profile* run : runs_) runs.push_back(run->method_summary(method));
  return intern(runs);
}

std::vector<std::string_view> ComparativeProfile::top_extensions(Summary s) {
  const Record& r = record(s);
  std::vector<std::string_view> all;
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (r.runs[i]) all = union_of(all, runs_[i]->top_extensions(*r.runs[i]));
  return all;
}

// A run's answer is its whole list unless cut to `at_most`, and then the union is that long too.
std::vector<std::string_view> ComparativeProfile::top_extensions_up_to(Summary s, std::size_t at_most,
                                                                       std::string_view other_than) {
  const Record& r = record(s);
  std::vector<std::string_view> all;
  for (std::size_t i = 0; i < runs_.size() && all.size() < at_most; ++i)
    if (r.runs[i]) all = union_of(all, runs_[i]->top_extensions_up_to(*r.runs[i], at_most, other_than));
  if (all.size() > at_most) all.resize(at_most);
  return all;
}

std::vector<std::string_view> ComparativeProfile::bottom_extensions(Summary s) {
  const Record& r = record(s);
  std::vector<std::string_view> all;
  for (std::size_t i = 0; i < runs_.size(); ++i)
    if (r.runs[i]) all = union_of(all, runs_[i]->bottom_extensions(*r.runs[i]));
  return all;
}

// An absent run stays absent: a sequence with no root has no extension with a root.
std::optional<Summary> ComparativeProfile::path_summary(std::span<const std::string_view> path) {
  RunSummaries runs;
  for (iface::Profile* run : runs_) runs.push_back(run->path_summary(path));
  return intern(runs);
}

std::optional<Summary> ComparativeProfile::extend_top(Summary s, std::string_view m) {
  const RunSummaries r = record(s).runs;  // copied: interning may grow records_
  RunSummaries runs;
  for (std::size_t i = 0; i < runs_.size(); ++i) runs.push_back(r[i] ? runs_[i]->extend_top(*r[i], m) : std::nullopt);
  return intern(runs);
}

std::optional<Summary> ComparativeProfile::extend_bottom(Summary s, std::string_view m) {
  const RunSummaries r = record(s).runs;
  RunSummaries runs;
  for (std::size_t i = 0; i < runs_.size(); ++i)
    runs.push_back(r[i] ? runs_[i]->extend_bottom(*r[i], m) : std::nullopt);
  return intern(runs);
}

std::optional<Summary> ComparativeProfile::trimmed(Summary s, iface::End end) {
  const Record r = record(s);
  if (r.pattern) {
    // A run without the sequence may still have the shorter one: ask every run anew.
    const auto shorter = iface::trimmed(pattern_of(s), end);
    return shorter ? pattern_summary(*shorter) : std::nullopt;
  }
  if (r.calls.size() <= 1) return std::nullopt;
  const bool top = end == iface::End::top;
  std::vector<NameId> calls(r.calls.begin() + (top ? 1 : 0), r.calls.end() - (top ? 0 : 1));
  if (const auto it = index_.find(calls); it != index_.end()) return Summary{it->second};
  std::vector<std::string_view> path;
  path.reserve(calls.size());
  for (const NameId id : calls) path.push_back(names_[id]);
  RunSummaries runs;
  for (std::size_t i = 0; i < runs_.size(); ++i)
    runs.push_back(r.runs[i] ? runs_[i]->trim(*r.runs[i], end) : runs_[i]->path_summary(path));
  return intern(runs);
}

std::optional<Summary> ComparativeProfile::trim_top(Summary s) { return trimmed(s, iface::End::top); }

std::optional<Summary> ComparativeProfile::trim_bottom(Summary s) { return trimmed(s, iface::End::bottom); }

Amount ComparativeProfile::base_of(Summary s) {
  return combined(per_run(record(s), [](iface::Profile& p, Summary x) { return p.base_of(x); }));
}

Amount ComparativeProfile::cum_of(Summary s) {
  return combined(per_run(record(s), [](iface::Profile& p, Summary x) { return p.cum_of(x); }));
}

// Each run's total over the summaries of S present there: a run's union never reaches a
// sequence that has no root there, so dropping absent runs loses nothing.
template <class Total>
ComparativeProfile::RunAmounts ComparativeProfile::run_totals_of(std::span<const Summary> S, Total total) {
  std::vector<std::vector<Summary>> sets(runs_.size());
  for (const Summary s : S) {
    const Record& r = record(s);
    for (std::size_t i = 0; i < runs_.size(); ++i)
      if (r.runs[i]) sets[i].push_back(*r.runs[i]);
  }
  RunAmounts amounts;
  for (std::size_t i = 0; i < runs_.size(); ++i) amounts.push_back(total(*runs_[i], sets[i]));
  return amounts;
}

std::vector<iface::Rational> ComparativeProfile::in_run_units(const RunAmounts& amounts) const {
  std::vector<iface::Rational> out;
  for (std::size_t i = 0; i < runs_.size(); ++i) out.push_back(iface::to_rational(amounts[i], runs_[i]->denominator()));
  return out;
}

Amount ComparativeProfile::total_base_of(std::span<const Summary> S) {
  return combined(
      run_totals_of(S, [](iface::Profile& p, std::span<const Summary> set) { return p.total_base_of(set); }));
}

Amount ComparativeProfile::total_cum_of(std::span<const Summary> S) {
  return combined(
      run_totals_of(S, [](iface::Profile& p, std::span<const Summary> set) { return p.total_cum_of(set); }));
}

std::vector<iface::Rational> ComparativeProfile::run_cums(std::span<const Summary> S) {
  return in_run_units(
      run_totals_of(S, [](iface::Profile& p, std::span<const Summary> set) { return p.total_cum_of(set); }));
}

std::vector<iface::Rational> ComparativeProfile::run_totals() {
  RunAmounts totals;
  for (iface::Profile* run : runs_) totals.push_back(run->total());
  return in_run_units(totals);
}

Amount ComparativeProfile::total() {
  RunAmounts totals;
  for (iface::Profile* run : runs_) totals.push_back(run->total());
  return combined(totals);
}

Amount ComparativeProfile::side_sum(const RunAmounts& amounts, Side side) const {
  const std::span<const Amount> all(amounts.data(), amounts.size());
  if (side == Side::a) return scaling_.difference(all.first(a_count_), {});
  return -scaling_.difference({}, all.subspan(a_count_));
}

Amount ComparativeProfile::a_total() {
  RunAmounts totals;
  for (iface::Profile* run : runs_) totals.push_back(run->total());
  return side_sum(totals, Side::a);
}

iface::Profile::PercentBase ComparativeProfile::percent_base() {
  if (percent_base_reason().empty()) return {total(), "total"};
  return {a_total(), "A"};
}

std::string ComparativeProfile::percent_base_reason() {
  const Amount difference = total();
  const iface::DisplayUnit unit = iface::display_unit(metric_);
  if (difference == 0) return "the difference sums to 0";
  if (const auto n = total_noise(); n && !n->significant())
    return "the total difference is within sampling noise (|z| = " + n->z_text() + " < " +
           std::to_string(iface::kSignificantZ) + ")";
  // Near zero: |A - B| below 1% of |A|, both over the common denominator.
  if (iface::abs_amount(difference) * 100 < iface::abs_amount(a_total()))
    return "the total difference is near zero (under 1% of A's total)";
  if (const std::optional<Summary> s = opposite_sign())
    return "the total difference " + iface::amount_text(difference, denominator(), unit) +
           " is of the opposite sign to the difference " + iface::amount_text(cum_of(*s), denominator(), unit) +
           " of " + std::string(path_of(*s).front());
  return {};
}

std::optional<Summary> ComparativeProfile::opposite_sign() {
  if (opposite_sign_) return *opposite_sign_;
  const Amount difference = total();
  std::optional<Summary> largest;
  Amount largest_size = iface::abs_amount(difference);
  if (difference != 0)
    for (const Summary s : initial_summaries()) {
      const Amount cum = cum_of(s);
      if ((cum < 0) == (difference < 0) || iface::abs_amount(cum) <= largest_size) continue;
      if (const auto n = noise(s); n && !n->significant()) continue;
      largest = s;
      largest_size = iface::abs_amount(cum);
    }
  opposite_sign_ = largest;
  return largest;
}

std::optional<iface::Noise> ComparativeProfile::noise_of(const RunAmounts& amounts) {
  if (!metric_.is_sample_count) return std::nullopt;
  const std::vector<iface::Rational> counts = in_run_units(amounts);
  const std::span<const iface::Rational> all(counts);
  return iface::difference_noise(all.first(a_count_), all.subspan(a_count_), scaling_.factor());
}

std::optional<iface::Noise> ComparativeProfile::noise(Summary s) {
  return noise_of(per_run(record(s), [](iface::Profile& p, Summary x) { return p.cum_of(x); }));
}

std::optional<iface::Noise> ComparativeProfile::total_noise() {
  RunAmounts totals;
  for (iface::Profile* run : runs_) totals.push_back(run->total());
  return noise_of(totals);
}

std::optional<iface::SideBySide> ComparativeProfile::sides(Summary s) {
  const Record& r = record(s);
  const RunAmounts cum = per_run(r, [](iface::Profile& p, Summary x) { return p.cum_of(x); });
  const RunAmounts base = per_run(r, [](iface::Profile& p, Summary x) { return p.base_of(x); });
  RunAmounts totals;
  for (iface::Profile* run : runs_) totals.push_back(run->total());
  const auto present = [&](std::size_t from, std::size_t to) {
    return std::any_of(r.runs.begin() + static_cast<std::ptrdiff_t>(from),
                       r.runs.begin() + static_cast<std::ptrdiff_t>(to), [](const auto& x) { return x.has_value(); });
  };
  iface::SideBySide v;
  v.in_a = present(0, a_count_);
  v.in_b = present(a_count_, runs_.size());
  v.a_cum = side_sum(cum, Side::a);
  v.a_base = side_sum(base, Side::a);
  v.b_cum = side_sum(cum, Side::b);
  v.b_base = side_sum(base, Side::b);
  v.a_total = side_sum(totals, Side::a);
  v.b_total = side_sum(totals, Side::b);
  return v;
}

}  // namespace bn::comparative
