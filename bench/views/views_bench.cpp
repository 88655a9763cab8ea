// Views at scale (docs/performance.md "Views"): a synthetic recording of RECORDS
// per-thread records is written as a native profile, opened again (read + decode), and every
// kind of view is built from it (target: BUILD_TARGET_S for 10M records); then REPL commands
// run on two of the views exactly as `bottlenecks repl` runs them (target: COMMAND_TARGET_MS).
// Memory per record: the decoded records held, and each build's peak on top of them.
//
// The recording imitates a server: 200 threads in 10 classes, each thread keeping to a few
// stacks of a 200k-node synthetic tree (calltree/synthetic_tree.h) and to its state for a while
// (3% runnable in Java, 2% runnable in native code, 6% blocked on a monitor held by a thread
// of the next class, 89% waiting); every 20th thread reniced to 5; CPU figures on runnable
// records, as the agent writes them. About 8 threads are runnable at a tick, rarely more than
// 20: few enough for the exact paper and cpus models to fit 64 bits at 10M records
// (docs/views.md, "Limits"); when they do not, the table says the build was refused.
//
// Usage: bn_views_bench RECORDS BUILD_TARGET_S COMMAND_TARGET_MS [FILE]   (bench/views/run.sh)

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/sample_records.h"
#include "bn/calltree/synthetic_tree.h"
#include "bn/views/view.h"
#include "repl_timing.h"

namespace {

using bn::bench::fixed;
using bn::bench::Latency;
using bn::bench::Stopwatch;
using bn::bench::Time;
namespace ct = bn::calltree;
namespace views = bn::views;

constexpr std::uint32_t kThreads = 200;
constexpr std::uint32_t kClasses = 10;
constexpr std::uint32_t kStacksPerThread = 6;
constexpr std::int64_t kIntervalNs = 20'000'000;

// splitmix64: deterministic on every platform.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

ct::SampleData synthesize(const ct::CallTree& tree, std::uint64_t records) {
  std::vector<ct::NodeId> leaves;
  for (ct::NodeId n = 1; n < tree.node_count(); ++n)
    if (tree.is_leaf(n)) leaves.push_back(n);
  Rng rng{42};
  ct::SampleData d;
  std::vector<std::vector<ct::NodeId>> stacks(kThreads);
  std::vector<std::uint32_t> state(kThreads);
  const std::uint32_t kStates[] = {ct::thread_state::kAlive | ct::thread_state::kRunnable,
                                   ct::thread_state::kAlive | ct::thread_state::kRunnable | ct::thread_state::kInNative,
                                   ct::thread_state::kAlive | ct::thread_state::kBlockedOnMonitorEnter,
                                   ct::thread_state::kAlive | ct::thread_state::kWaiting |
                                       ct::thread_state::kWaitingIndefinitely | ct::thread_state::kInObjectWait};
  auto draw_state = [&] {
    const std::uint64_t p = rng.below(100);
    return kStates[p < 3 ? 0 : p < 5 ? 1 : p < 11 ? 2 : 3];
  };
  for (std::uint32_t t = 0; t < kThreads; ++t) {
    ct::ThreadEntry e;
    e.index = t;
    e.java_id = t + 1;
    e.os_tid = static_cast<std::int32_t>(1000 + t);
    e.name = "worker-" + std::to_string(t % kClasses) + "-" + std::to_string(t);
    e.thread_class = "app.Worker" + std::to_string(t % kClasses);
    d.threads.push_back(e);
    for (std::uint32_t k = 0; k < kStacksPerThread; ++k) stacks[t].push_back(leaves[rng.below(leaves.size())]);
    state[t] = draw_state();
  }
  const std::uint64_t ticks = records / kThreads;
  d.records.reserve(ticks * kThreads);
  for (std::uint64_t k = 0; k < ticks; ++k) {
    d.ticks.push_back(
        {static_cast<std::int64_t>(k) * kIntervalNs, static_cast<std::uint32_t>(d.records.size()), kThreads});
    for (std::uint32_t t = 0; t < kThreads; ++t) {
      if (rng.below(10) == 0) state[t] = draw_state();
      ct::SampleRecord r;
      r.thread = t;
      r.node = stacks[t][rng.below(kStacksPerThread)];
      r.state = state[t];
      r.nice = t % 20 == 0 ? 5 : 0;
      if (r.state & ct::thread_state::kBlockedOnMonitorEnter) r.owner = (t + 1) % kThreads;
      if ((r.state & ct::thread_state::kRunnable) && k > 0) {
        r.has_cpu = true;
        r.elapsed_ns = kIntervalNs;
        r.run_ns = rng.below(kIntervalNs);
        r.wait_ns = rng.below(kIntervalNs - r.run_ns);
      }
      d.records.push_back(r);
    }
  }
  return d;
}

views::ViewSpec spec(views::ViewKind kind, std::optional<views::Model> model, views::States states = {}) {
  views::ViewSpec s;
  s.kind = kind;
  s.thread_class = "app.Worker3";
  s.model = model;
  s.states = states;
  return s;
}

std::string label_of(const views::ViewSpec& s) {
  return views::describe(s) + ", " + (s.model ? views::to_string(*s.model) : std::string("default model"));
}

int run(std::uint64_t records, double build_target_s, double command_target_ms, std::filesystem::path file) {
  std::printf("machine: %ld cores, load average %s", sysconf(_SC_NPROCESSORS_ONLN), [] {
    std::FILE* f = std::fopen("/proc/loadavg", "r");
    static char buf[128] = "?\n";
    if (f != nullptr && std::fgets(buf, sizeof buf, f) == nullptr) buf[0] = 0;
    if (f != nullptr) std::fclose(f);
    return buf;
  }());
  {
    const ct::CallTree tree = ct::generate_synthetic_tree({200'000, 1});
    const ct::SampleData d = synthesize(tree, records);
    ct::write_profile(tree, file, ct::encode_sample_data(tree, d));
  }
  Stopwatch watch;
  const ct::LoadedProfile loaded = ct::read_profile(file);
  const Time read{watch.wall_s(), watch.cpu_s()};
  const double after_tree = bn::bench::status_bytes("VmRSS");
  watch = Stopwatch();
  const ct::SampleData samples = ct::decode_sample_data(loaded, file.string());
  const Time decode{watch.wall_s(), watch.cpu_s()};
  const double held = bn::bench::status_bytes("VmRSS") - after_tree;
  const auto n = static_cast<double>(samples.records.size());
  const double file_bytes = static_cast<double>(std::filesystem::file_size(file));
  std::printf("%.0f records in %zu ticks, %zu threads; recorded tree %zu nodes; file %.1f MB\n", n,
              samples.ticks.size(), samples.threads.size(), loaded.tree.node_count() - 1, file_bytes / 1e6);

  bool all_ok = true;
  auto row = [&](const std::string& what, const std::string& cpu, const std::string& wall, const std::string& target,
                 bool ok) {
    bn::bench::print_row(what.c_str(), cpu, wall, target, ok);
    all_ok = all_ok && ok;
  };
  row("measure", "cpu", "wall", "target", true);
  row("open: read tree", fixed(read.cpu, 3, " s"), fixed(read.wall, 3, " s"), "", true);
  row("open: decode records", fixed(decode.cpu, 3, " s"), fixed(decode.wall, 3, " s"), "", true);
  row("file bytes/record", fixed(file_bytes / n, 2, ""), "", "", true);
  row("records held, bytes/record", fixed(held / n, 1, ""), "", "", true);

  const std::vector<views::ViewSpec> specs = {
      spec(views::ViewKind::server, std::nullopt),
      spec(views::ViewKind::server, views::Model{views::Model::Kind::paper, 1}),
      spec(views::ViewKind::thread, std::nullopt),
      spec(views::ViewKind::thread, views::Model{views::Model::Kind::paper, 1}),
      spec(views::ViewKind::thread, views::Model{views::Model::Kind::cpus, 2}),
      spec(views::ViewKind::tree, views::Model{views::Model::Kind::cpus, 2}, views::States::running),
      spec(views::ViewKind::tree, std::nullopt, views::States::runnable),
  };
  // Each build in a child process of its own (a fresh heap), its peak memory measured from a
  // reset VmHWM; a refused build is reported with its reason.
  for (const views::ViewSpec& s : specs) {
    double unused = 0;
    const Latency l = bn::bench::isolated(
        label_of(s),
        [&] {
          const double rss = bn::bench::reset_peak();
          const Stopwatch w;
          Latency out{label_of(s), {}, {}};
          try {
            const views::View v = views::build_view(loaded.tree, samples, s);
            out.cold = out.warm = {w.wall_s(), w.cpu_s()};
            out.memory = bn::bench::peak_growth(rss);
            std::fprintf(stderr, "  %s: %zu nodes; %s\n", out.command.c_str(), v.tree.node_count(),
                         v.header.front().c_str());
          } catch (const bn::Error& e) {
            std::printf("  build %s: refused: %s\n", out.command.c_str(), e.what());
            out.memory = -1;
          }
          std::fflush(stdout);
          return out;
        },
        unused);
    if (l.memory < 0) continue;
    const double target = build_target_s * n / 1e7;
    row("build " + l.command, fixed(l.cold.cpu, 3, " s"), fixed(l.cold.wall, 3, " s"), fixed(target, 2, " s"),
        !l.timed_out && l.cold.cpu <= target);
    row("  peak bytes/record while building", fixed(l.memory / n, 1, ""), "", "", true);
  }

  // Commands on the two views a user opens first.
  for (const views::ViewSpec& s :
       {spec(views::ViewKind::thread, std::nullopt), spec(views::ViewKind::server, std::nullopt)}) {
    const views::View v = views::build_view(loaded.tree, samples, s);
    double peak = 0;
    auto command = [&](const std::string& label, const std::function<Latency()>& group) {
      const Latency l = bn::bench::isolated(label, group, peak);
      const std::string target = fixed(command_target_ms, 0, " ms");
      row(views::describe(s) + ": " + l.command + ", first", fixed(l.cold.cpu, 1, " ms"), fixed(l.cold.wall, 1, " ms"),
          target, !l.timed_out && l.cold.cpu <= command_target_ms);
      row(views::describe(s) + ": " + l.command + ", again", fixed(l.warm.cpu, 1, " ms"), fixed(l.warm.wall, 1, " ms"),
          target, !l.timed_out && l.warm.cpu <= command_target_ms);
    };
    command("suggest", [&] {
      bn::bench::Fresh f(v.tree, v.denominator);
      return bn::bench::repeated(f, "suggest", "suggest");
    });
    command("select (zoom on)", [&] { return bn::bench::select_top10(v.tree, v.denominator, true); });
    for (const char* path : {":RUN", ":MONITOR"}) {
      const auto m = v.tree.find_method(path);
      if (!m || v.tree.nodes_of(*m).empty()) continue;
      command(std::string("path ") + path + " (zoom on)", [&] {
        bn::bench::Fresh f(v.tree, v.denominator);
        f.run("set zoom on");
        return bn::bench::repeated(f, std::string("path ") + path + " (zoom on)", std::string("path ") + path);
      });
    }
  }
  return all_ok ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s RECORDS BUILD_TARGET_S COMMAND_TARGET_MS [FILE]\n", argv[0]);
    return 1;
  }
  try {
    const std::filesystem::path file =
        argc == 5 ? std::filesystem::path(argv[4]) : std::filesystem::temp_directory_path() / "bn-views-bench.bnp";
    return run(std::strtoull(argv[1], nullptr, 10), std::strtod(argv[2], nullptr), std::strtod(argv[3], nullptr), file);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bn_views_bench: error: %s\n", e.what());
    return 1;
  }
}
