#include "diff_render.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "bn/repl/elide.h"
#include "bn/search/text.h"

namespace bn::cli {
namespace {

constexpr std::size_t kWidth = 80;

std::string printed(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// A share of the baseline's total in percent: "+12.3%".
std::string percent(double share) { return printed("%+.1f%%", 100 * share); }

std::string interval(const comparative::DifferenceTest& t) {
  return printed("%+.1f", 100 * t.low) + ".." + printed("%+.1f", 100 * t.high);
}

std::string p_text(const DiffRow& r) {
  if (!r.tested) return "-";
  return r.test.p < 1e-4 ? "<0.0001" : printed("%.2g", r.test.p);
}

std::string mark(const DiffRow& r) { return r.trips ? "!" : r.significant ? "*" : ""; }

std::string side_text(const Side& side, const iface::DisplayUnit& unit) {
  std::string runs;
  for (const Run& r : side)
    runs +=
        (runs.empty() ? "" : ", ") + file_name(r.path) + " (" + iface::amount_text(r.total, r.denominator, unit) + ")";
  return side.size() == 1 ? runs : "the mean of " + search::counted(side.size(), "run") + ": " + runs;
}

std::string gate_result(const DiffReport& report, const GateOutcome& g) {
  std::string quoted = "'" + g.gate.text + "'";
  switch (g.gate.kind) {
    case Gate::Kind::cum:
      return quoted + " tripped by " + search::counted(g.tripped_by, "significant regression");
    case Gate::Kind::total:
      return quoted + " tripped: the total " + percent(report.total->test.difference);
    case Gate::Kind::method:
      return quoted + " tripped: " + search::counted(g.methods, "method") + " " + percent(g.subject->test.difference);
  }
  return quoted;
}

// How the differences were judged together, for the report's last line.
std::string judged_text(const DiffReport& report) {
  const std::string rate = printed("%.0f", 100 * kDiffErrorRate) + "%";
  const DiffTest& t = report.test;
  if (t.kind == DiffTest::Kind::false_discovery)
    return search::counted(t.tests, "difference") + " tested, false-discovery rate " + rate + " (Benjamini–Hochberg)";
  return search::counted(t.tests, "difference") + " tested together (" + search::counted(t.methods_added, "method") +
         " beside the rows), family-wise error " + rate + ": max-t over " +
         (t.exhaustive ? "all " + search::counted(t.labellings, "labelling") + " of the runs"
                       : search::counted(t.labellings, "labelling") + " of the runs drawn at random");
}

std::string counts_text(const DiffReport& report) {
  return search::counted(report.significant(+1), "significant regression") + ", " +
         search::counted(report.significant(-1), "significant improvement");
}

std::string total_line(const DiffReport& report) {
  if (!report.total) return "total: not tested (--normalize total makes both totals equal)";
  const DiffRow& t = *report.total;
  return "total: " + percent(t.test.difference) + " (" + iface::amount_text(t.a, report.denominator, report.unit) +
         " vs " + iface::amount_text(t.b, report.denominator, report.unit) + "), 95% interval " + interval(t.test) +
         ", p " + p_text(t) + (t.significant ? ", significant" : ", not significant");
}

std::string row_path(const DiffRow& r, std::size_t width) { return repl::fit_path(r.calls, width); }

nlohmann::json test_json(const DiffRow& r) {
  nlohmann::json j = {{"difference", r.test.difference},
                      {"low", r.test.low},
                      {"high", r.test.high},
                      {"p", r.tested ? nlohmann::json(r.test.p) : nlohmann::json(nullptr)},
                      {"df", std::isinf(r.test.df) ? nlohmann::json(nullptr) : nlohmann::json(r.test.df)},
                      {"tested", r.tested},
                      {"significant", r.significant},
                      {"trips_gate", r.trips}};
  return j;
}

nlohmann::json side_json(const Side& side) {
  nlohmann::json runs = nlohmann::json::array();
  for (const Run& r : side)
    runs.push_back({{"file", file_name(r.path)}, {"total", iface::exact_string(r.total, r.denominator)}});
  return runs;
}

nlohmann::json test_method_json(const DiffTest& t) {
  if (t.kind == DiffTest::Kind::false_discovery) return {{"kind", "false-discovery"}};
  return {{"kind", "max-t"},
          {"labellings", t.labellings},
          {"exhaustive", t.exhaustive},
          {"methods_added", t.methods_added}};
}

}  // namespace

std::string diff_verdict(const DiffReport& report) {
  std::string tripped;
  for (const GateOutcome& g : report.gates)
    if (g.tripped()) tripped += (tripped.empty() ? "" : "; ") + gate_result(report, g);
  if (!tripped.empty()) return "FAIL: " + tripped;
  std::string gates;
  for (const GateOutcome& g : report.gates) gates += (gates.empty() ? "'" : ", '") + g.gate.text + "'";
  return "PASS: no gate tripped (" + gates + "); " + counts_text(report);
}

std::string diff_text(const DiffReport& report) {
  std::string out = repl::wrap(diff_verdict(report), kWidth) + "\n";
  out += repl::wrap(search::terminal_safe("A = " + side_text(report.a, report.unit)), kWidth) + "\n";
  out += repl::wrap(search::terminal_safe("B = " + side_text(report.b, report.unit) +
                                          "; normalisation: " + report.normalization),
                    kWidth) +
         "\n";
  for (const std::string& note : report.notes) out += repl::wrap("note: " + note, kWidth) + "\n";
  out += "\n";
  if (report.rows.empty()) {
    out += "no summary to report: none found differing by at least " + printed("%.2g", 100 * report.min_effect) +
           "% of B's total\n";
  } else {
    out += repl::wrap(counts_text(report) + "; changes are % of B's total " +
                          iface::amount_text(report.b_total, report.denominator, report.unit) +
                          ", top regressions first (* significant, ! trips a gate):",
                      kWidth) +
           "\n";
    const bool unit_header = iface::unit_in_header(report.unit);
    const std::string cum_title = unit_header ? report.unit.name : "cum";
    char line[256];
    std::snprintf(line, sizeof line, "%8s  %-14s %8s %1s %9s %9s\n", "change", "95% interval", "p", "",
                  ("A " + cum_title).c_str(), ("B " + cum_title).c_str());
    out += line;
    for (const DiffRow& r : report.rows) {
      std::snprintf(line, sizeof line, "%8s  %-14s %8s %1s %9s %9s\n", percent(r.test.difference).c_str(),
                    interval(r.test).c_str(), p_text(r).c_str(), mark(r).c_str(),
                    iface::cell_text(r.a, report.denominator, report.unit).c_str(),
                    iface::cell_text(r.b, report.denominator, report.unit).c_str());
      // The call sequence on a line of its own: beside the numbers its names would not fit.
      out += line + std::string(10, ' ') + search::terminal_safe(row_path(r, kWidth - 10)) + "\n";
    }
  }
  out += repl::wrap(total_line(report), kWidth) + "\n";
  for (const GateOutcome& g : report.gates)
    if (g.gate.kind == Gate::Kind::method)
      out += repl::wrap("gate '" + g.gate.text + "': " + search::counted(g.methods, "method") + " " +
                            percent(g.subject->test.difference) + ", 95% interval " + interval(g.subject->test) +
                            ", p " + p_text(*g.subject) + (g.tripped() ? ": tripped" : ""),
                        kWidth) +
             "\n";
  out += repl::wrap("(" + judged_text(report) + "; docs/compare.md, \"The diff gate\")", kWidth) + "\n";
  return out;
}

std::string diff_markdown(const DiffReport& report) {
  const auto cell = [](const std::string& text) {
    std::string out;
    for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  std::string out = "**" + cell(diff_verdict(report)) + "**\n\n";
  out += "A = " + cell(side_text(report.a, report.unit)) + "  \nB = " + cell(side_text(report.b, report.unit)) +
         "; normalisation: " + report.normalization + "\n\n";
  for (const std::string& note : report.notes) out += "> " + cell(note) + "\n";
  if (!report.notes.empty()) out += "\n";
  if (report.rows.empty()) {
    out += "No summary to report: none found differing by at least " + printed("%.2g", 100 * report.min_effect) +
           "% of B's total.\n\n";
  } else {
    out += "Changes are % of B's total " + iface::amount_text(report.b_total, report.denominator, report.unit) +
           ", top regressions first.\n\n";
    out += "| | change | 95% interval | p | significant | gate | A | B | call sequence |\n";
    out += "|---|---:|---|---:|---|---|---:|---:|---|\n";
    for (const DiffRow& r : report.rows)
      out += std::string("| ") + (r.test.difference > 0 ? "slower" : "faster") + " | " + percent(r.test.difference) +
             " | " + interval(r.test) + " | " + p_text(r) + " | " + (r.significant ? "yes" : "no") + " | " +
             (r.trips ? "**tripped**" : "") + " | " + iface::amount_text(r.a, report.denominator, report.unit) + " | " +
             iface::amount_text(r.b, report.denominator, report.unit) + " | `" + cell(row_path(r, 100)) + "` |\n";
    out += "\n";
  }
  out += cell(total_line(report)) + "\n\n";
  out += "<sub>" + cell(judged_text(report)) + "; bottlenecks diff</sub>\n";
  return out;
}

std::string diff_json(const DiffReport& report) {
  nlohmann::json j = {{"schema", "bottlenecks-diff/1"},
                      {"verdict", report.tripped() ? "fail" : "pass"},
                      {"verdict_text", diff_verdict(report)},
                      {"a", side_json(report.a)},
                      {"b", side_json(report.b)},
                      {"unit", report.unit.name},
                      {"normalization", report.normalization},
                      {"baseline_total", iface::exact_string(report.b_total, report.denominator)},
                      {"min_effect", report.min_effect},
                      {"error_rate", kDiffErrorRate},
                      {"false_discovery_rate", kDiffErrorRate},
                      {"confidence", kDiffConfidence},
                      {"tests", report.test.tests},
                      {"test", test_method_json(report.test)},
                      {"notes", report.notes}};
  j["summaries"] = nlohmann::json::array();
  for (const DiffRow& r : report.rows) {
    nlohmann::json row = test_json(r);
    row["calls"] = r.calls;
    row["direction"] = r.test.difference > 0 ? "regression" : "improvement";
    row["a_cum"] = iface::exact_string(r.a, report.denominator);
    row["b_cum"] = iface::exact_string(r.b, report.denominator);
    j["summaries"].push_back(row);
  }
  j["total"] = nullptr;
  if (report.total) {
    j["total"] = test_json(*report.total);
    j["total"]["a"] = iface::exact_string(report.total->a, report.denominator);
    j["total"]["b"] = iface::exact_string(report.total->b, report.denominator);
  }
  j["gates"] = nlohmann::json::array();
  for (const GateOutcome& g : report.gates) {
    const char* kinds[] = {"cum", "total", "method"};
    nlohmann::json gate = {{"expression", g.gate.text},
                           {"kind", kinds[static_cast<int>(g.gate.kind)]},
                           {"threshold", g.gate.threshold},
                           {"tripped", g.tripped()},
                           {"tripped_by", g.tripped_by}};
    if (g.gate.kind == Gate::Kind::method) {
      gate["glob"] = g.gate.glob;
      gate["methods"] = g.methods;
      gate["test"] = test_json(*g.subject);
    }
    j["gates"].push_back(gate);
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace bn::cli
