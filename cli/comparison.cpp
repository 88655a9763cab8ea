#include "comparison.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "bn/base/error.h"
#include "bn/search/text.h"
#include "profile_options.h"

namespace bn::cli {
namespace {

// "a.collapsed (total 66 samples)", or for several runs "the mean of 2 runs: a1.collapsed
// (total 10 samples), a2.collapsed (total 11 samples)".
std::string side_text(const Side& side, const iface::DisplayUnit& unit) {
  std::string runs;
  for (const Run& r : side)
    runs += (runs.empty() ? "" : ", ") + file_name(r.path) + " (total " +
            iface::amount_text(r.total, r.denominator, unit) + ")";
  return side.size() == 1 ? runs : "the mean of " + search::counted(side.size(), "run") + ": " + runs;
}

// One run: its file name and total as before; several: arrays of them.
void side_json(nlohmann::json& j, const char* name, const Side& side) {
  const std::string total = std::string(name) + "_total";
  if (side.size() == 1) {
    j[name] = file_name(side.front().path);
    j[total] = iface::exact_string(side.front().total, side.front().denominator);
    return;
  }
  j[name] = nlohmann::json::array();
  j[total] = nlohmann::json::array();
  for (const Run& r : side) {
    j[name].push_back(file_name(r.path));
    j[total].push_back(iface::exact_string(r.total, r.denominator));
  }
}

}  // namespace

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string joined(const std::vector<std::string>& paths) {
  std::string text;
  for (const std::string& p : paths) text += (text.empty() ? "" : ", ") + p;
  return text;
}

void add_compare_options(CLI::App& sub, CompareCliOptions& options, RunsAlone runs_alone) {
  auto* base = sub.add_option("--base", options.base,
                              "Compare: search PROFILE minus BASE (seed 004 sec. 2.2), e.g. a run with a "
                              "feature enabled minus one with it disabled. Repeat it for several runs of B, "
                              "averaged exactly (docs/compare.md)")
                   ->allow_extra_args(false);
  auto* runs = sub.add_option("RUNS", options.more,
                              runs_alone == RunsAlone::pooled
                                  ? "More recordings of PROFILE's program. With --base, A is the exact mean of PROFILE "
                                    "and RUNS, and differences are tested against the runs' spread; without, the tree "
                                    "searched is PROFILE's and `causal` pools every recording's experiments"
                                  : "More runs of PROFILE's program (with --base): A is the exact mean of PROFILE and "
                                    "RUNS, and differences are tested against the runs' spread");
  if (runs_alone == RunsAlone::refused) runs->needs(base);
  auto* normalize = sub.add_option("--normalize", options.normalize,
                                   "How BASE is weighed: none (default; both runs did the same work) or total "
                                   "(scale BASE to PROFILE's total)")
                        ->check(CLI::IsMember({"none", "total"}))
                        ->needs(base);
  sub.add_option("--scale", options.scale, "Weigh BASE by the exact factor F (a decimal or fraction, e.g. 0.5 or 2/3)")
      ->needs(base)
      ->excludes(normalize);
  sub.add_flag("--force", options.force, "Compare profiles whose metric or unit differ")->needs(base);
}

comparative::CompareOptions to_compare_options(const CompareCliOptions& o) {
  comparative::CompareOptions options;
  options.force = o.force;
  options.normalization = parsing_option("--normalize", [&] { return comparative::parse_normalize_mode(o.normalize); });
  if (!o.scale.empty())
    options.normalization = {comparative::Normalization::Kind::scale,
                             parsing_option("--scale", [&] { return comparative::parse_scale_factor(o.scale); })};
  return options;
}

std::unique_ptr<comparative::ComparativeProfile> make_comparison(const std::vector<iface::Profile*>& a,
                                                                 const std::vector<iface::Profile*>& b,
                                                                 const comparative::CompareOptions& compare,
                                                                 const CompareCliOptions& options,
                                                                 const std::string& a_names) {
  const std::string base = "--base " + joined(options.base);
  try {
    return std::make_unique<comparative::ComparativeProfile>(a, b, compare);
  } catch (const comparative::MetricMismatch& e) {
    throw Error(base + ": " + e.what() + "; pass --force to subtract them anyway");
  } catch (const comparative::RunMismatch& e) {
    throw Error((e.in_b ? base : a_names) + ": " + e.what());
  } catch (const Error& e) {
    throw Error(base + ": " + e.what());
  }
}

std::vector<std::string> comparison_header(comparative::ComparativeProfile& p, const Side& a, const Side& b) {
  const iface::Amount d = p.denominator();
  const iface::DisplayUnit unit = iface::display_unit(p.metric());
  std::vector<std::string> lines{
      "comparing A = " + side_text(a, unit) + " minus B = " + side_text(b, unit) +
          "; normalisation: " + p.normalization_text(),
      p.percent_base_reason().empty()
          ? "every number is A - B; percentages are of the total difference " + iface::amount_text(p.total(), d, unit)
          : "every number is A - B; " + p.percent_base_reason() + ", so percentages are of A's total " +
                iface::amount_text(p.percent_base().amount, d, unit)};
  for (const std::string& note : p.notes()) lines.push_back("note: " + note);
  return lines;
}

std::string comparison_header_json(comparative::ComparativeProfile& p, const Side& a, const Side& b) {
  nlohmann::json j = {{"command", "compare"},
                      {"ok", true},
                      {"normalization", p.normalization_text()},
                      {"total", iface::exact_string(p.total(), p.denominator())},
                      {"notes", p.notes()},
                      {"percentages_of", p.percent_base().name}};
  side_json(j, "a", a);
  side_json(j, "b", b);
  if (const std::string why = p.percent_base_reason(); !why.empty()) j["percentages_why"] = why;
  if (const auto noise = p.total_noise()) {
    j["total_significant"] = noise->significant();
    j["total_z"] = noise->z_text();
    if (noise->several_runs())
      j["total_variance"] = {{"a", iface::to_string(noise->a_estimate)}, {"b", iface::to_string(noise->b_estimate)}};
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bn::cli
