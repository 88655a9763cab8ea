// Call sequences with gaps and aspects at scale (docs/performance.md "Aspects"): on the
// synthetic tree `bottlenecks generate --nodes NODES --seed 1` makes, each step timed on a fresh
// TreeProfile (cold caches), five times, the median printed (CPU and wall; the target is judged
// on CPU, as the other benchmarks do on this shared machine):
//   - evaluating `:app;..;:util` (aspects app = com.example.app.pkg0.*, util = java.util.Helper1*):
//     resolving both patterns over the method names and one pass over the tree (cum and base);
//   - its extended downward refinement, the cum and base of `:app;..;:util;..;x` for every x
//     (Profile::gap_extensions).
//   - its top and bottom extensions with their cum and base (what `path` lists: x;P and P;x for
//     every x; not judged against the target);
//   - `exclude :app;..;:util` (pruning, not judged against the target): the filtered
//     tree (calltree/backend's filtered_tree) and the TreeProfile the REPL then searches, what a
//     filter command costs on top of reopening the view.
// Not timed: the REPL's `refine` on it, which builds every extended summary with a pass each
// (docs/aspects.md, "Limits").
//
// Usage: bn_aspects_bench NODES TARGET_MS   (bench/aspects/run.sh); exit status 2 if the first
// two steps together miss TARGET_MS.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/synthetic_tree.h"
#include "bn/calltree/tree_filter.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/call_pattern.h"
#include "repl_timing.h"  // Stopwatch, Time

namespace {

using bn::bench::Stopwatch;
using bn::bench::Time;

constexpr int kRepetitions = 5;
constexpr const char* kApp = "com.example.app.pkg0.*";
constexpr const char* kUtil = "java.util.Helper1*";

bn::iface::CallPattern sequence() {
  const auto app = std::make_shared<const bn::base::MethodPattern>(kApp);
  const auto util = std::make_shared<const bn::base::MethodPattern>(kUtil);
  return bn::iface::parse_call_pattern(":app;..;:util", [&](std::string_view name) {
    return name == "app" ? app : name == "util" ? util : nullptr;
  });
}

bool by_cpu(const Time& a, const Time& b) { return a.cpu < b.cpu; }

// Median over repetitions of `step`, which gets a fresh profile and times what it measures.
Time median(const bn::calltree::CallTree& tree, const std::function<Time(bn::calltree::TreeProfile&)>& step) {
  std::vector<Time> times;
  for (int i = 0; i < kRepetitions; ++i) {
    bn::calltree::TreeProfile profile(tree);
    times.push_back(step(profile));
  }
  std::sort(times.begin(), times.end(), by_cpu);
  return times[kRepetitions / 2];
}

Time timed(const std::function<void()>& f) {
  const Stopwatch watch;
  f();
  return {watch.wall_s() * 1000, watch.cpu_s() * 1000};
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bn_aspects_bench NODES TARGET_MS\n");
    return 1;
  }
  const std::uint64_t nodes = std::strtoull(argv[1], nullptr, 10);
  const double target = std::strtod(argv[2], nullptr);
  const bn::calltree::CallTree tree = bn::calltree::generate_synthetic_tree({nodes, 1});
  const bn::iface::CallPattern p = sequence();

  std::size_t refined = 0;
  bn::iface::Amount cum = 0;
  const Time evaluate = median(tree, [&](bn::calltree::TreeProfile& profile) {
    return timed([&] { cum = profile.cum_of(profile.pattern_summary(p).value()); });
  });
  const Time refine = median(tree, [&](bn::calltree::TreeProfile& profile) {
    const auto s = profile.pattern_summary(p).value();
    return timed([&] { refined = profile.gap_extensions(s).size(); });
  });
  std::size_t top = 0, bottom = 0;
  const Time listed = median(tree, [&](bn::calltree::TreeProfile& profile) {
    const auto s = profile.pattern_summary(p).value();
    return timed([&] {
      top = profile.extension_amounts(s, bn::iface::End::top).size();
      bottom = profile.extension_amounts(s, bn::iface::End::bottom).size();
    });
  });
  std::size_t kept_nodes = 0;
  std::vector<Time> filter_times;
  for (int i = 0; i < kRepetitions; ++i) {
    const std::vector<bn::iface::ProfileFilter> filters{{bn::iface::ProfileFilter::Kind::exclude, p}};
    filter_times.push_back(timed([&] {
      const bn::calltree::CallTree filtered = bn::calltree::filtered_tree(tree, filters);
      const bn::calltree::TreeProfile profile(filtered);
      kept_nodes = filtered.node_count() - 1;
    }));
  }
  std::sort(filter_times.begin(), filter_times.end(), by_cpu);
  const Time filter = filter_times[kRepetitions / 2];
  std::printf("tree: %llu nodes; :app;..;:util has cum %s and %zu methods in its extended downward refinement\n",
              static_cast<unsigned long long>(tree.node_count() - 1), bn::iface::to_string(cum).c_str(), refined);
  std::printf("%-58s %12s %12s\n", "step (median of 5, fresh profile)", "cpu ms", "wall ms");
  std::printf("%-58s %12.1f %12.1f\n", "evaluate :app;..;:util (cum, base)", evaluate.cpu, evaluate.wall);
  std::printf("%-58s %12.1f %12.1f\n", "its extended downward refinement (gap_extensions)", refine.cpu, refine.wall);
  std::printf("%-58s %12.1f %12.1f\n", "both", evaluate.cpu + refine.cpu, evaluate.wall + refine.wall);
  std::printf("%-58s %12.1f %12.1f\n", "its top and bottom extensions, measured (not judged)", listed.cpu, listed.wall);
  std::printf("%-58s %12.1f %12.1f\n", "exclude it: filtered tree and its profile (not judged)", filter.cpu,
              filter.wall);
  std::printf("it has %zu top and %zu bottom extensions; the filtered tree keeps %zu nodes\n", top, bottom, kept_nodes);
  const bool ok = evaluate.cpu + refine.cpu <= target;
  std::printf("target: evaluation and refinement within %.0f ms of CPU: %s\n", target, ok ? "met" : "MISSED");
  return ok ? 0 : 2;
} catch (const bn::Error& e) {
  std::fprintf(stderr, "bn_aspects_bench: %s\n", e.what());
  return 1;
}
