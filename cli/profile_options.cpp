#include "profile_options.h"

#include <iostream>
#include <string>

#include "bn/calltree/probe_cost.h"
#include "bn/calltree/profile_reader.h"
#include "bn/search/text.h"
#include "progress_line.h"

namespace bn::cli {

void add_profile_options(CLI::App& sub, ProfileOptions& options) {
  sub.add_option("PROFILE", options.path,
                 "Profile to read, recognised by content: native (.bnp), JFR (.jfr), pprof (.pb.gz, "
                 ".pprof) or collapsed stacks (plain, .gz, .zst)")
      ->required();
  sub.add_flag("--partial", options.partial,
               "Accept a native profile whose recording was cut off (e.g. by SIGKILL) and load "
               "its complete chunks");
  sub.add_flag("--signatures", options.keep_signatures,
               "Keep Java method signatures in imported frame names (tells overloads apart)");
  sub.add_option("--sample-type", options.sample_type,
                 "pprof: the sample type searched by default (e.g. cpu, alloc_space; default: the file's "
                 "default, else its last); every type is kept as a metric (--metric). JFR: cpu (jdk.ExecutionSample, "
                 "the default), native, "
                 "monitor-enter, monitor-wait or park. `info` lists a file's types");
  sub.add_option("--metric", options.metric,
                 "The metric to search when the profile has several (a call-tree recording's time and calls, a "
                 "pprof file's sample types; `info` lists them); default: the profile's first");
  sub.add_flag("--threads", options.thread_frames,
               "pprof and JFR: put each sample's thread above its outermost frame as '[thread NAME]'");
}

calltree::OpenedProfile open_profile_from(const ProfileOptions& options) {
  calltree::OpenOptions open;
  open.accept_unfinished = options.partial;
  open.import.keep_signatures = options.keep_signatures;
  open.import.sample_type = options.sample_type;
  open.import.thread_frames = options.thread_frames;
  calltree::OpenedProfile opened = [&] {
    const auto progress = ProgressLine::on_stderr("reading " + options.path);
    open.import.progress = progress->callback();
    try {
      return calltree::open_profile(options.path, open);
    } catch (const calltree::UnfinishedProfileError& e) {
      throw Error(std::string(e.what()) + "; --partial reads its complete chunks");
    }
  }();  // the progress line is erased before any warning is printed
  if (opened.loaded.unfinished)
    std::cerr << "bottlenecks: warning: " << search::terminal_safe(opened.loaded.warning) << '\n';
  if (options.probe_estimate)
    if (std::optional<calltree::ProbeCostEstimate> estimate = calltree::estimate_probe_cost(opened.loaded.tree)) {
      calltree::CallTree& tree = opened.loaded.tree;
      tree = std::move(tree).with_extra_metric(std::move(estimate->time_less_probes));
      const std::size_t derived = tree.metric_count() - 1;
      if (options.metric.empty()) tree = std::move(tree).with_metric(derived);
    }
  if (!options.metric.empty()) {
    const std::size_t metric = parsing_option(
        "--metric", [&] { return find_metric_or_throw(opened.loaded.tree, options.metric, options.path); });
    opened.loaded.tree = std::move(opened.loaded.tree).with_metric(metric);
  }
  return opened;
}

std::string metric_list(const calltree::CallTree& tree) {
  std::string list;
  for (std::size_t k = 0; k < tree.metric_count(); ++k) {
    const calltree::MetricSpec m = tree.metric_spec(k);
    list += (list.empty() ? "" : ", ") + (m.name.empty() ? std::string("(unnamed)") : m.name) +
            (m.unit.empty() ? "" : " (" + m.unit + ")");
  }
  return list;
}

std::size_t find_metric_or_throw(const calltree::CallTree& tree, std::string_view name, std::string_view where) {
  if (const auto k = tree.find_metric(name)) return *k;
  throw Error("no metric '" + std::string(name) + "' in " + std::string(where) + " (it has " + metric_list(tree) + ")");
}

}  // namespace bn::cli
