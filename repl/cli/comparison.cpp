#include "comparison.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "bn/iface/error.h"
#include "profile_options.h"

namespace bn::cli {
namespace {

// File names only: the header is part of golden transcripts, which must not depend on where
// the tree lives.
std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

void add_compare_options(CLI::App& sub, CompareCliOptions& options) {
  auto* base = sub.add_option("--base", options.base,
                              "Compare: search PROFILE minus BASE (seed 004 sec. 2.2), e.g. a run with a "
                              "feature enabled minus one with it disabled");
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

std::unique_ptr<comparative::ComparativeProfile> make_comparison(iface::Profile& a, iface::Profile& b,
                                                                 const comparative::CompareOptions& compare,
                                                                 const CompareCliOptions& options) {
  try {
    return std::make_unique<comparative::ComparativeProfile>(a, b, compare);
  } catch (const comparative::MetricMismatch& e) {
    throw Error("--base " + options.base + ": " + e.what() + "; pass --force to subtract them anyway");
  } catch (const Error& e) {
    throw Error("--base " + options.base + ": " + e.what());
  }
}

std::vector<std::string> comparison_header(comparative::ComparativeProfile& p, const Side& a, const Side& b) {
  const iface::Amount d = p.denominator();
  const std::string unit = p.metric().unit.empty() ? "" : " " + p.metric().unit;
  std::vector<std::string> lines{"comparing A = " + file_name(a.path) + " (total " + iface::to_string(a.total) + unit +
                                     ") minus B = " + file_name(b.path) + " (total " + iface::to_string(b.total) +
                                     unit + "); normalisation: " + p.normalization_text(),
                                 p.percent_base_reason().empty()
                                     ? "every number is A - B; percentages are of the total difference " +
                                           iface::decimal_string(p.total(), d) + unit
                                     : "every number is A - B; " + p.percent_base_reason() +
                                           ", so percentages are of A's total " +
                                           iface::decimal_string(p.percent_base().amount, d) + unit};
  for (const std::string& note : p.notes()) lines.push_back("note: " + note);
  return lines;
}

std::string comparison_header_json(comparative::ComparativeProfile& p, const Side& a, const Side& b) {
  nlohmann::json j = {{"command", "compare"},
                      {"ok", true},
                      {"a", file_name(a.path)},
                      {"b", file_name(b.path)},
                      {"normalization", p.normalization_text()},
                      {"a_total", iface::to_string(a.total)},
                      {"b_total", iface::to_string(b.total)},
                      {"total", iface::exact_string(p.total(), p.denominator())},
                      {"notes", p.notes()},
                      {"percentages_of", p.percent_base().name}};
  if (const std::string why = p.percent_base_reason(); !why.empty()) j["percentages_why"] = why;
  if (const auto noise = p.total_noise()) {
    j["total_significant"] = noise->significant();
    j["total_z"] = noise->z_text();
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bn::cli
