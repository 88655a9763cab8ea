// Interactive scale: how long a profile takes to open, how much memory it holds, and
// how long each REPL command takes on it, measured through the REPL engine exactly as
// `bottlenecks repl` runs commands (bn::repl::Runner, text output rendered into a string).
//
// Not a Google Benchmark: what a user waits for is one-shot — opening the file, and the FIRST
// run of a command on a fresh profile, before the backend has cached anything — and peak memory
// needs a process of its own per profile. Repeated-iteration timing would report only the warm
// case; it is printed too, as the median of later runs.
//
// Usage: bn_interactive_bench PROFILE LOAD_TARGET_S COMMAND_TARGET_MS   (bench/run.sh runs it)
// With BN_BENCH_ONLY=TEXT in the environment, only the command groups whose label holds TEXT.

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_loader.h"
#include "bn/calltree/tree_profile.h"
#include "repl_timing.h"

namespace {

using bn::bench::fixed;
using bn::bench::Fresh;
using bn::bench::Latency;
using bn::bench::print_row;
using bn::bench::repeated;
using bn::bench::status_bytes;
using bn::bench::Stopwatch;
using bn::bench::Time;
using bn::calltree::CallTree;
using bn::calltree::TreeProfile;

// The nodes each method labels, counted by a scan of the tree's column: CallTree::nodes_of would
// build the tree's method index here, before the groups, and their first commands would not pay
// for it as a user's first command does.
std::vector<std::size_t> nodes_per_method(const CallTree& tree) {
  std::vector<std::size_t> count(tree.method_count());
  for (bn::calltree::NodeId n = 1; n < tree.node_count(); ++n) ++count[tree.method(n)];
  return count;
}

// The hottest utility: the method labelling the most nodes (seed 004's "hot utility method",
// whose many calling contexts make `path` and its extensions the most expensive).
std::string hot_method(const CallTree& tree, const std::vector<std::size_t>& nodes) {
  const auto best = std::max_element(nodes.begin(), nodes.end()) - nodes.begin();
  return std::string(tree.method_name(static_cast<bn::calltree::MethodId>(best)));
}

// 50 labels of 10 summaries of real weight: the 500 methods labelling the most
// nodes, the hot utility methods whose many calling contexts make the largest label unions,
// dealt in turn so that every label holds heavy and lighter ones, labelled through the session
// as `label` does (when `labelled`). Then the session shows the labels and a summary (`labels`,
// `path` of the second hottest method), as one that labelled them has: a command timed after
// this pays for its own work, not for measuring labels changed before it nor for what any first
// `path` computes once. The same without labels is the yardstick: it looks the 500 summaries up
// too, so that both sessions have the tree's method index (the fifth method looked up builds it,
// CallTree::nodes_of). Without that lookup the yardstick's first `select`s paid the index (62
// page faults and 2-10 ms at 1.1M nodes) and the labelled one did not, and the ratio read 0.26-0.48.
void prepare_session(Fresh& f, const CallTree& tree, const std::vector<std::size_t>& nodes, bool labelled) {
  constexpr std::size_t kLabels = 50, kPerLabel = 10;
  std::vector<bn::calltree::MethodId> methods(tree.method_count());
  for (bn::calltree::MethodId m = 0; m < methods.size(); ++m) methods[m] = m;
  const std::size_t n = std::min(methods.size(), kLabels * kPerLabel);
  std::partial_sort(methods.begin(), methods.begin() + static_cast<std::ptrdiff_t>(n), methods.end(),
                    [&](auto a, auto b) { return nodes[a] > nodes[b]; });
  for (std::size_t i = 0; i < n; ++i) {
    const bn::iface::Summary s = *f.profile.method_summary(tree.method_name(methods[i]));
    if (labelled) f.session.labels().add("L" + std::to_string(i % kLabels), s);
  }
  f.run("labels");
  f.run("path " + std::string(tree.method_name(methods[1])));
}

// Notes when the first row of the first nearby list reaches the stream in a flush: what a
// pipe delivers at that moment (a terminal shows every line as it is written).
class FirstRowClock final : public std::stringbuf {
 public:
  std::optional<Time> first;  // ms since `start`
  Stopwatch start;

 protected:
  int sync() override {
    const std::string text = str();
    // The list's name, its column header, then its first row: three line ends.
    std::size_t at = text.find("top extensions:");
    for (int lines = 0; lines < 3 && at != std::string::npos; ++lines) at = text.find('\n', at + 1);
    if (!first && at != std::string::npos)
      first = Time{start.wall_s() * 1e3, start.cpu_s() * 1e3, start.faults_since()};
    return 0;
  }
};

// `show` of a summary whose nearby lists were computed before, listing all of them (`set limit
// all`): the time until its first row is delivered (as cold) and until its last (warm).
Latency first_row(Fresh& f, const std::string& label) {
  FirstRowClock clock;
  std::ostream stream(&clock);
  bn::repl::Runner runner(f.session, stream, f.err, bn::repl::RunOptions{});
  clock.start = Stopwatch();
  if (runner.run_line("show", "bench") != bn::repl::LineResult::kOk || !clock.first)
    throw bn::Error("bench: `show` printed no top extension: " + f.err.str());
  const Time all{clock.start.wall_s() * 1e3, clock.start.cpu_s() * 1e3, clock.start.faults_since()};
  const std::string text = clock.str();
  std::fprintf(stderr, "  %-40s %10.1f ms wall %10.1f ms cpu to the first row, %zu lines\n", "show", clock.first->wall,
               clock.first->cpu, static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')));
  return {label, *clock.first, all};
}

int run(const std::filesystem::path& path, double load_target_s, double command_target_ms) {
  const double rss_before = status_bytes("VmRSS");
  Stopwatch watch;
  const bn::calltree::OpenedProfile opened = bn::calltree::open_profile(path);
  const Time read{watch.wall_s(), watch.cpu_s(), watch.faults_since()};
  const CallTree& tree = opened.loaded.tree;
  watch = Stopwatch();
  // The backend's own start-up, as `repl` pays it. Its per-method figures and the tree's method
  // index wait for the first command that needs them: each group's fresh profile pays them once,
  // in its child process (nothing here builds them).
  { TreeProfile first(tree); }
  const Time backend{watch.wall_s(), watch.cpu_s(), watch.faults_since()};
  const double resident = status_bytes("VmRSS") - rss_before;
  const double nodes = static_cast<double>(tree.node_count() - 1);

  const std::vector<std::size_t> method_nodes = nodes_per_method(tree);
  const std::string hot = hot_method(tree, method_nodes);
  const std::string hot_short = hot.substr(hot.rfind('.', hot.rfind('.') - 1) + 1);
  std::vector<Latency> latencies;
  double peak_hwm = status_bytes("VmHWM");
  // BN_BENCH_ONLY=TEXT measures only the groups whose label contains TEXT (for profiling one).
  const char* only = std::getenv("BN_BENCH_ONLY");
  auto measure = [&](const std::string& label, auto group, Latency names = {}) {
    if (only != nullptr && label.find(only) == std::string::npos) return;
    latencies.push_back(bn::bench::isolated(label, group, peak_hwm));
    Latency& l = latencies.back();
    l.cold_name = names.cold_name;
    l.warm_name = names.warm_name;
    l.cold_target_ms = names.cold_target_ms;
    l.warm_judged = names.warm_judged;
  };
  measure("suggest", [&] {
    Fresh f(tree);
    return repeated(f, "suggest", "suggest");
  });
  measure("select (zoom off)", [&] { return bn::bench::select_top10(tree, 1, false); });
  measure("select (zoom on)", [&] { return bn::bench::select_top10(tree, 1, true); });
  measure("path " + hot_short, [&] {
    Fresh f(tree);
    return repeated(f, "path " + hot_short, "path " + hot);
  });
  measure("path " + hot_short + " (zoom on)", [&] {
    Fresh f(tree);
    f.run("set zoom on");
    return repeated(f, "path " + hot_short + " (zoom on)", "path " + hot);
  });
  measure(
      "show, set limit all, " + hot_short,
      [&] {
        Fresh f(tree);
        f.run("path " + hot);  // the lists' amounts, as the user who asks for all of them has them
        f.run("set limit all");
        return first_row(f, "show, set limit all, " + hot_short);
      },
      [] {
        Latency names;
        names.cold_name = "first row";
        names.warm_name = "all rows";
        names.cold_target_ms = 100;
        names.warm_judged = false;
        return names;
      }());
  // Each with 50 labels and without, on the same prepared session (prepare_session), three times
  // in turn: a first visit at 10M nodes moves by a third from one run to the next on a virtual
  // machine (the kernel zeroing fresh pages), more than the labels cost, so each row is the median
  // of three, and the ratio of the medians is judged (within 1.2x).
  struct Ratio {
    std::string command;
    double labelled_over_not;
    long labelled_faults, unlabelled_faults;  // of the two medians
  };
  std::vector<Ratio> ratios;
  const auto with_and_without = [&](const std::string& command, auto group) {
    constexpr int kRounds = 3;
    std::array<std::vector<Latency>, 2> runs;  // without labels, with
    for (int round = 0; round < kRounds; ++round)
      for (const bool labelled : {false, true}) {
        const std::string label = command + (labelled ? ", 50 labels" : ", no labels");
        if (only != nullptr && label.find(only) == std::string::npos) continue;
        runs[labelled].push_back(bn::bench::isolated(
            label, [&] { return group(labelled); }, peak_hwm));
        runs[labelled].back().command = label;
      }
    for (const auto& kind : runs)
      if (!kind.empty()) latencies.push_back(bn::bench::median_of(kind));
    if (!runs[0].empty() && !runs[1].empty()) {
      const Time labelled = bn::bench::median_of(runs[1]).cold, unlabelled = bn::bench::median_of(runs[0]).cold;
      ratios.push_back({command, labelled.cpu / unlabelled.cpu, labelled.faults, unlabelled.faults});
    }
  };
  with_and_without("select (zoom off)", [&](bool labelled) {
    return bn::bench::select_top10(tree, 1, false, [&](Fresh& f) { prepare_session(f, tree, method_nodes, labelled); });
  });
  with_and_without("path " + hot_short, [&](bool labelled) {
    Fresh f(tree);
    prepare_session(f, tree, method_nodes, labelled);
    return repeated(f, "path " + hot_short, "path " + hot);
  });
  measure("labels (50 x 10 hot methods, one changed)", [&] {
    Fresh f(tree);
    prepare_session(f, tree, method_nodes, true);
    // One label changed since `labels` last ran: its set and its 49 pairs are measured again.
    f.run("path " + hot);
    f.run("label L1");
    return repeated(f, "labels (50 x 10 hot methods, one changed)", "labels");
  });
  measure("labels (10 labelled)", [&] {
    Fresh f(tree);
    // The top suggestions and their heaviest bottom extensions: summaries of lengths 1 and 2.
    for (int k = 0; k < 5; ++k) {
      f.run("suggest");
      f.run("select " + std::to_string(k));
      f.run("label L" + std::to_string(k));
      f.run("select 0");
      f.run("label M" + std::to_string(k));
    }
    return repeated(f, "labels (10 labelled)", "labels");
  });
  const double peak = peak_hwm - rss_before;

  const double file_bytes = static_cast<double>(std::filesystem::file_size(path));
  const Time load{read.wall + backend.wall, read.cpu + backend.cpu, read.faults + backend.faults};
  std::printf("%s: %.0f nodes, %zu methods\n", path.filename().c_str(), nodes, tree.method_count());
  // "faults": the minor page faults of the run shown (docs/performance.md, "Reading these figures": what fresh
  // pages cost on this virtual machine moves a first visit by more than the command's own work).
  print_row("measure", "cpu", "wall", "target", true, "faults");
  bool all_ok = true;
  auto row = [&](const std::string& what, const std::string& cpu, const std::string& wall, const std::string& target,
                 bool ok, const std::string& faults = "") {
    print_row(what.c_str(), cpu, wall, target, ok, faults);
    all_ok = all_ok && ok;
  };
  auto seconds = [&](const std::string& what, Time t, double target) {
    row(what, fixed(t.cpu, 3, " s"), fixed(t.wall, 3, " s"), target > 0 ? fixed(target, 1, " s") : "",
        target <= 0 || t.cpu <= target, std::to_string(t.faults));
  };
  seconds("load: read file + build tree", read, 0);
  seconds("load: backend start-up", backend, 0);
  seconds("load: total", load, load_target_s);
  row("file bytes/node", fixed(file_bytes / nodes, 2, ""), "", "6", file_bytes / nodes <= 6.0);
  row("resident bytes/node (loaded)", fixed(resident / nodes, 1, ""), "", "64", resident / nodes <= 64.0);
  row("peak bytes/node (VmHWM)", fixed(peak / nodes, 1, ""), "", "64", peak / nodes <= 64.0);
  for (const Latency& l : latencies) {
    const double cold_target = l.cold_target_ms > 0 ? std::min(l.cold_target_ms, command_target_ms) : command_target_ms;
    const std::string target = fixed(cold_target, 0, " ms");
    if (l.timed_out) {
      const std::string over = "> " + std::to_string(bn::bench::kGroupTimeoutSeconds) + " s";
      row(l.command, over, over, target, false);
      continue;
    }
    row(l.command + ", " + l.cold_name, fixed(l.cold.cpu, 1, " ms"), fixed(l.cold.wall, 1, " ms"), target,
        l.cold.cpu <= cold_target, std::to_string(l.cold.faults));
    row(l.command + ", " + l.warm_name, fixed(l.warm.cpu, 1, " ms"), fixed(l.warm.wall, 1, " ms"),
        l.warm_judged ? fixed(command_target_ms, 0, " ms") : "", !l.warm_judged || l.warm.cpu <= command_target_ms,
        std::to_string(l.warm.faults));
  }
  for (const Ratio& r : ratios)
    row(r.command + ", 50 labels / none, first", fixed(r.labelled_over_not, 2, "x"), "", "1.2x",
        r.labelled_over_not <= 1.2, std::to_string(r.labelled_faults) + " / " + std::to_string(r.unlabelled_faults));
  return all_ok ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s PROFILE LOAD_TARGET_S COMMAND_TARGET_MS\n", argv[0]);
    return 1;
  }
  try {
    return run(argv[1], std::strtod(argv[2], nullptr), std::strtod(argv[3], nullptr));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bn_interactive_bench: error: %s\n", e.what());
    return 1;
  }
}
