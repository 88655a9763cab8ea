#include "diff_report.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "bn/base/error.h"
#include "bn/base/glob.h"
#include "bn/comparative/false_discovery.h"
#include "bn/comparative/max_t.h"
#include "bn/comparative/run_shares.h"
#include "bn/iface/noise.h"
#include "bn/search/autolabel.h"
#include "bn/search/suggest.h"
#include "bn/search/text.h"

namespace bn::cli {
namespace {

using comparative::ComparativeProfile;

// The runs' shares of S; `shares` keeps them for the max-t test.
DiffRow tested_row(ComparativeProfile& p, std::span<const iface::Summary> S, bool sampled,
                   comparative::RunShares& shares) {
  shares = comparative::run_shares(p, S);
  DiffRow row;
  row.test = comparative::welch_difference(shares.a, shares.b, kDiffConfidence);
  // Without sampling variance a single run per side has no variance at all: nothing to test.
  row.tested = sampled || row.test.spread_measured;
  return row;
}

DiffRow summary_row(ComparativeProfile& p, iface::Summary s, bool sampled, comparative::RunShares& shares) {
  const iface::Summary one[] = {s};
  DiffRow row = tested_row(p, one, sampled, shares);
  for (const std::string_view call : p.path_of(s)) row.calls.emplace_back(call);
  if (const auto sides = p.sides(s)) {
    row.a = sides->a_cum;
    row.b = sides->b_cum;
  }
  return row;
}

// The summaries of the methods matching a gate's pattern; throws when there are none, since a
// gate that can never trip would pass every build in silence.
std::vector<iface::Summary> methods_matching(ComparativeProfile& p, const Gate& gate) {
  std::vector<iface::Summary> out;
  for (const iface::Summary s : p.initial_summaries())
    if (base::glob_match(gate.glob, p.path_of(s).front())) out.push_back(s);
  if (out.empty()) throw Error("--fail-if '" + gate.text + "': no method matches '" + gate.glob + "' in A or in B");
  return out;
}

// The report's autolabel options for one sign of the difference, overlapping none of `labelled`.
search::AutolabelOptions autolabel_options(ComparativeProfile& p, int direction, const DiffSettings& settings,
                                           const std::vector<iface::Summary>& labelled, iface::Amount b_total) {
  search::AutolabelOptions options;
  options.count = settings.per_sign;
  options.direction = direction;
  options.labelled = labelled;
  // Differences too small to report are neither proposed nor searched from; the significance
  // test is the report's own (not the REPL's |z| >= 4), so only the ten-samples rule stays.
  const double smallest = settings.min_effect * static_cast<double>(b_total);
  options.keep = [&p, smallest](iface::Summary s) {
    const iface::Amount cum = p.cum_of(s);
    return static_cast<double>(iface::abs_amount(cum)) >= smallest && search::reliable(p, cum);
  };
  return options;
}

// autolabel's proposals for one sign, from the search both signs share.
std::vector<iface::Summary> proposed(ComparativeProfile& p, const search::AutolabelOptions& options,
                                     const search::AutolabelReached& reached) {
  std::vector<iface::Summary> out;
  for (const search::AutolabelProposal& proposal : search::autolabel(p, options, reached).proposals)
    out.push_back(proposal.summary);
  return out;
}

std::vector<std::string> notes_of(ComparativeProfile& p, const Side& a, const Side& b, bool sampled) {
  std::vector<std::string> notes = p.notes();
  const std::size_t fewest = std::min(a.size(), b.size());
  if (a.size() == 1 && b.size() == 1) {
    notes.emplace_back(sampled ? "1 run per side: run-to-run drift not measured; differences are tested against "
                                 "sampling noise alone and must also reach |z| >= 4"
                               : "1 run per side and costs that are not sample counts: no difference can be tested");
  } else if (fewest == 1) {
    notes.push_back(std::string(a.size() == 1 ? "A" : "B") +
                    " has 1 run: its run-to-run drift is not measured, only its sampling noise");
  } else if (fewest < 5) {
    notes.push_back(search::counted(fewest, "run") +
                    " on the smaller side: few degrees of freedom, wide intervals; 5 or more runs per side "
                    "find smaller regressions");
  }
  return notes;
}

using Family = std::vector<std::pair<DiffRow*, comparative::RunShares>>;

// Benjamini–Hochberg over every difference tested, for too few runs to relabel.
DiffTest judge_by_false_discovery(const Family& family) {
  std::vector<double> p_values;
  p_values.reserve(family.size());
  for (const auto& [row, shares] : family) p_values.push_back(row->test.p);
  const std::vector<bool> rejected = comparative::benjamini_hochberg(p_values, kDiffErrorRate);
  for (std::size_t i = 0; i < family.size(); ++i) {
    DiffRow& r = *family[i].first;
    // With one run per side drift is unmeasured: also the REPL's |z| >= 4 (docs/compare.md, "Noise").
    const bool strict = !r.test.spread_measured;
    r.significant =
        rejected[i] && (!strict || std::abs(r.test.difference) >= iface::kSignificantZ * r.test.standard_error);
  }
  return {DiffTest::Kind::false_discovery, family.size(), 0, false, 0};
}

// Whether a method's share reaches `smallest` in some run: it could then differ by that much. A
// choice that looks at no labelling, so the max-t test's error holds over the family it makes.
bool could_differ(const comparative::RunShares& shares, double smallest) {
  const auto reaches = [smallest](const comparative::SideShares& side) {
    return std::any_of(side.shares.begin(), side.shares.end(),
                       [smallest](double s) { return std::abs(s) >= smallest; });
  };
  return reaches(shares.a) || reaches(shares.b);
}

// Max-t over relabellings of the runs. The family is every difference reported or gated and every
// method that could differ by the smallest reported effect: the methods stand in for what the
// search looked through, since it picks the rows from this very labelling.
DiffTest judge_by_max_t(ComparativeProfile& p, const std::vector<iface::Summary>& methods, double min_effect,
                        Family& family) {
  std::vector<comparative::RunShares> shares;
  for (const auto& member : family) shares.push_back(member.second);
  std::size_t added = 0;
  for (const iface::Summary s : methods) {
    const iface::Summary one[] = {s};
    comparative::RunShares method = comparative::run_shares(p, one);
    if (!could_differ(method, min_effect)) continue;
    shares.push_back(std::move(method));
    ++added;
  }
  const comparative::MaxTTest test = comparative::max_t_test(shares, kDiffErrorRate);
  for (std::size_t i = 0; i < family.size(); ++i) {
    DiffRow& r = *family[i].first;
    const double se = r.test.standard_error;
    r.test.p = test.p[i];
    r.test.low = se > 0 ? r.test.difference - test.up * se : r.test.difference;
    r.test.high = se > 0 ? r.test.difference + test.down * se : r.test.difference;
    r.significant = test.p[i] <= kDiffErrorRate;
  }
  return {DiffTest::Kind::max_t, shares.size(), test.labellings, test.exhaustive, added};
}

}  // namespace

bool DiffReport::tripped() const {
  return std::any_of(gates.begin(), gates.end(), [](const GateOutcome& g) { return g.tripped(); });
}

std::size_t DiffReport::significant(int sign) const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [sign](const DiffRow& r) {
    return r.significant && (sign > 0 ? r.test.difference > 0 : r.test.difference < 0);
  }));
}

DiffReport make_diff_report(ComparativeProfile& p, const Side& a, const Side& b, const DiffSettings& settings) {
  DiffReport report;
  report.a = a;
  report.b = b;
  report.normalization = p.normalization_text();
  report.unit = iface::display_unit(p.metric());
  report.denominator = p.denominator();
  report.min_effect = settings.min_effect;
  const bool sampled = p.metric().is_sample_count;
  report.notes = notes_of(p, a, b, sampled);
  const std::vector<iface::Summary> methods = p.initial_summaries();
  if (const auto sides = methods.empty() ? std::nullopt : p.sides(methods.front())) report.b_total = sides->b_total;
  if (report.b_total <= 0) {
    std::vector<std::string> names;
    for (const Run& r : b) names.push_back(r.path);
    throw Error("--base " + joined(names) + ": the baseline's total is 0, so no share of it can be taken");
  }

  std::vector<Gate> gates = settings.gates;
  if (gates.empty()) gates.push_back(parse_gate(kDefaultGate));

  // Every difference tested, with its runs' shares: the summaries, the total, the gates' methods.
  Family family;
  // The total and the gates before the search, so that a bad gate fails at once.
  std::optional<comparative::RunShares> total_shares = comparative::total_shares(p);
  if (total_shares) {
    DiffRow total;
    total.test = comparative::welch_difference(total_shares->a, total_shares->b, kDiffConfidence);
    total.tested = sampled || total.test.spread_measured;
    total.a = report.b_total + p.total();
    total.b = report.b_total;
    report.total = total;
  }
  std::vector<comparative::RunShares> gate_shares;
  for (const Gate& gate : gates) {
    GateOutcome outcome{gate, std::nullopt, 0, 0};
    if (gate.kind == Gate::Kind::total && !report.total)
      throw Error("--fail-if '" + gate.text + "': under --normalize total both totals are made equal");
    if (gate.kind == Gate::Kind::method) {
      const std::vector<iface::Summary> matching = methods_matching(p, gate);
      outcome.methods = matching.size();
      outcome.subject = tested_row(p, matching, sampled, gate_shares.emplace_back());
    }
    report.gates.push_back(outcome);
  }

  // Regressions first, then improvements overlapping none of them: one non-overlapping set.
  // Where the search stops depends on neither sign, so both choose from one search.
  const search::AutolabelOptions slower = autolabel_options(p, +1, settings, {}, report.b_total);
  const search::AutolabelReached reached = search::autolabel_reached(p, slower);
  std::vector<iface::Summary> chosen = proposed(p, slower, reached);
  const std::vector<iface::Summary> faster =
      proposed(p, autolabel_options(p, -1, settings, chosen, report.b_total), reached);
  chosen.insert(chosen.end(), faster.begin(), faster.end());
  std::vector<comparative::RunShares> row_shares;
  for (const iface::Summary s : chosen) report.rows.push_back(summary_row(p, s, sampled, row_shares.emplace_back()));

  for (std::size_t i = 0; i < report.rows.size(); ++i) family.emplace_back(&report.rows[i], std::move(row_shares[i]));
  if (report.total) family.emplace_back(&*report.total, std::move(*total_shares));
  std::size_t next_gate = 0;
  for (GateOutcome& g : report.gates)
    if (g.subject) family.emplace_back(&*g.subject, std::move(gate_shares[next_gate++]));
  std::erase_if(family, [](const auto& member) { return !member.first->tested; });
  const std::size_t labellings = comparative::labellings_of(a.size(), b.size());
  // 1 / labellings is the smallest p-value max-t can give; with fewer runs it could never reject.
  report.test = static_cast<double>(labellings) * kDiffErrorRate >= 1
                    ? judge_by_max_t(p, methods, settings.min_effect, family)
                    : judge_by_false_discovery(family);

  std::erase_if(report.rows, [&](const DiffRow& r) { return std::abs(r.test.difference) < settings.min_effect; });
  // Regressions, then improvements; in each the significant ones first (a larger change that
  // a relabelling of the runs also shows is noise, and must not head the report), largest first.
  std::stable_sort(report.rows.begin(), report.rows.end(), [](const DiffRow& x, const DiffRow& y) {
    const bool x_up = x.test.difference > 0, y_up = y.test.difference > 0;
    if (x_up != y_up) return x_up;
    if (x.significant != y.significant) return x.significant;
    return std::abs(x.test.difference) > std::abs(y.test.difference);
  });

  for (GateOutcome& g : report.gates) {
    const auto trips = [&](const DiffRow& r) { return r.significant && r.test.difference > g.gate.threshold; };
    if (g.gate.kind == Gate::Kind::cum) {
      for (DiffRow& r : report.rows)
        if (trips(r)) {
          r.trips = true;
          ++g.tripped_by;
        }
    } else {
      const DiffRow& subject = g.gate.kind == Gate::Kind::total ? *report.total : *g.subject;
      g.tripped_by = trips(subject) ? 1 : 0;
      if (g.gate.kind == Gate::Kind::total) report.total->trips = report.total->trips || g.tripped();
      if (g.subject) g.subject->trips = g.tripped();
    }
  }
  return report;
}

}  // namespace bn::cli
