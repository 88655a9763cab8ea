// `bottlenecks info PROFILE [--json]`: what a profile is before you search it — the
// characteristics of seed 004 Table 1, the total cost and metric (and the other metrics of a
// profile that has several), and the recorder's metadata.

#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "bn/calltree/profile_loader.h"
#include "bn/calltree/tree_stats.h"
#include "bn/iface/amount.h"
#include "bn/iface/units.h"
#include "bn/search/text.h"
#include "commands.h"
#include "profile_options.h"

namespace bn::cli {
namespace {

struct InfoOptions {
  ProfileOptions profile;
  bool json = false;
};

std::string mean(std::uint64_t sum, std::uint64_t count) {
  return count == 0 ? "0" : iface::decimal_string(sum, count, 2);
}

// A total as people read it, and exactly when rounding changed it: "60.5 s (60469348886 ns)".
std::string total_text(iface::Amount total, std::string_view metric, std::string_view unit) {
  const iface::DisplayUnit shown = iface::display_unit(metric, unit);
  const std::string text = iface::amount_text(total, 1, shown), exact = iface::exact_text(total, 1, shown);
  return text == exact ? text : text + " (" + exact + ")";
}

std::string format_time(std::int64_t unix_ns) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ns / 1'000'000'000);
  char text[32];
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::ordered_json to_json(const calltree::OpenedProfile& opened, const calltree::TreeStats& s) {
  const calltree::CallTree& tree = opened.loaded.tree;
  const calltree::Metadata& m = tree.metadata();
  nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < tree.metric_count(); ++k) {
    const calltree::MetricSpec spec = tree.metric_spec(k);
    metrics.push_back({{"name", spec.name}, {"unit", spec.unit}, {"total_cost", tree.metric_total(k)}});
  }
  nlohmann::ordered_json meta = {{"mode", m.mode},
                                 {"metric", m.metric},
                                 {"unit", m.unit},
                                 {"jvm", m.jvm},
                                 {"command_line", m.command_line},
                                 {"start_time_unix_ns", m.start_time_unix_ns},
                                 {"duration_ns", m.duration_ns},
                                 {"sample_interval_ns", m.sample_interval_ns}};
  for (const auto& [key, value] : m.extra) meta[key] = value;
  return {{"format", std::string(opened.format->name)},
          {"unfinished", opened.loaded.unfinished},
          {"nodes", s.nodes},
          {"leaves", s.leaves},
          {"max_depth", s.max_depth},
          {"mean_depth", mean(s.depth_sum, s.nodes)},
          {"max_out_degree", s.max_out_degree},
          {"mean_out_degree", mean(s.interior_edges, s.interior_nodes)},
          {"distinct_methods", s.distinct_methods},
          {"total_cost", s.total_cost},
          {"metrics", metrics},
          {"metadata", meta}};
}

void print_text(const calltree::OpenedProfile& opened, const calltree::TreeStats& s) {
  const calltree::Metadata& m = opened.loaded.tree.metadata();
  auto line = [](std::string_view label, const std::string& value) {
    constexpr std::size_t kColumn = 20;
    if (value.empty()) return;
    // Long metadata keys (recorder statistics) push the value right rather than underflow.
    // Metadata comes from the file (a recorder's command line, its extra keys): never raw to a terminal.
    std::cout << search::terminal_safe(label) << std::string(label.size() < kColumn ? kColumn - label.size() : 1, ' ')
              << search::terminal_safe(value) << '\n';
  };
  line("format", std::string(opened.format->name));
  line("nodes", std::to_string(s.nodes) + " (" + std::to_string(s.leaves) + " leaves)");
  line("depth", "max " + std::to_string(s.max_depth) + ", mean " + mean(s.depth_sum, s.nodes));
  line("out-degree", "max " + std::to_string(s.max_out_degree) + ", mean " + mean(s.interior_edges, s.interior_nodes) +
                         " (interior nodes)");
  line("distinct methods", std::to_string(s.distinct_methods));
  line("total cost", total_text(s.total_cost, m.metric, m.unit));
  line("metric", m.metric);
  const calltree::CallTree& tree = opened.loaded.tree;
  for (std::size_t k = 1; k < tree.metric_count(); ++k) {
    const calltree::MetricSpec spec = tree.metric_spec(k);
    line(k == 1 ? "other metrics" : "", spec.name + ": total " +
                                            total_text(tree.metric_total(k), spec.name, spec.unit) + " (--metric " +
                                            spec.name + ")");
  }
  line("mode", m.mode);
  line("jvm", m.jvm);
  line("command line", m.command_line);
  if (m.start_time_unix_ns != 0) line("start time", format_time(m.start_time_unix_ns));
  if (m.duration_ns != 0) line("duration", iface::duration_text(m.duration_ns, 1));
  if (m.sample_interval_ns != 0) line("sample interval", iface::duration_text(m.sample_interval_ns, 1));
  for (const auto& [key, value] : m.extra) line(key, value);
  if (opened.loaded.unfinished) line("warning", opened.loaded.warning);
}

void run_info(const InfoOptions& options) {
  // `info` describes the file as recorded: no derived metric.
  ProfileOptions as_recorded = options.profile;
  as_recorded.probe_estimate = false;
  const calltree::OpenedProfile opened = open_profile_from(as_recorded);
  const calltree::TreeStats stats = calltree::compute_stats(opened.loaded.tree);
  if (options.json)
    std::cout << to_json(opened, stats).dump() << '\n';
  else
    print_text(opened, stats);
}

}  // namespace

void setup_info(CLI::App& app) {
  auto options = std::make_shared<InfoOptions>();
  CLI::App* sub =
      app.add_subcommand("info", "Print a profile's shape (seed 004 Table 1), total cost, metric and metadata");
  add_profile_options(*sub, options->profile);
  sub->add_flag("--json", options->json, "Print one JSON object instead of text");
  sub->callback([options] { run_info(*options); });
}

}  // namespace bn::cli
