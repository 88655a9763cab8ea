// Interactive scale (issue 6): how long a profile takes to open, how much memory it holds, and
// how long each REPL command takes on it, measured through the REPL engine exactly as
// `bottlenecks repl` runs commands (bn::repl::Runner, text output rendered into a string).
//
// Not a Google Benchmark: what a user waits for is one-shot — opening the file, and the FIRST
// run of a command on a fresh profile, before the backend has cached anything — and peak memory
// needs a process of its own per profile. Repeated-iteration timing would report only the warm
// case; it is printed too, as the median of later runs.
//
// Usage: bn_interactive_bench PROFILE LOAD_TARGET_S COMMAND_TARGET_MS   (bench/run.sh runs it)

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bn/calltree/profile_loader.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/error.h"
#include "bn/repl/runner.h"
#include "bn/repl/session.h"

namespace {

using Clock = std::chrono::steady_clock;
using bn::calltree::CallTree;
using bn::calltree::TreeProfile;

// Wall and CPU time of this process. The machine is shared (other builds run beside the
// benchmark), so wall time includes waiting for a core; CPU time is what the work costs and
// what wall time would be on an idle machine. Both are printed; targets are judged on CPU.
struct Stopwatch {
  Clock::time_point wall = Clock::now();
  double cpu = cpu_seconds();
  static double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  double wall_s() const { return std::chrono::duration<double>(Clock::now() - wall).count(); }
  double cpu_s() const { return cpu_seconds() - cpu; }
};

struct Time {
  double wall = 0, cpu = 0;  // same unit as the caller's (s or ms)
};

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM").
double status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field + ":", 0) == 0) return std::strtod(line.c_str() + field.size() + 1, nullptr) * 1024.0;
  throw bn::Error("/proc/self/status has no " + field + " line");
}

// One REPL session on a fresh TreeProfile, so every command group starts with cold caches.
struct Fresh {
  explicit Fresh(const CallTree& tree)
      : profile(tree), session(profile), runner(session, out, err, bn::repl::RunOptions{}) {}

  // Runs a line, returns its latency in ms; a failing command aborts the benchmark.
  Time run(const std::string& line) {
    out.str("");
    const Stopwatch watch;
    const bn::repl::LineResult r = runner.run_line(line, "bench");
    const Time ms{watch.wall_s() * 1e3, watch.cpu_s() * 1e3};
    if (r != bn::repl::LineResult::kOk || out.str().empty())
      throw bn::Error("bench command '" + line + "' failed: " + err.str());
    // Progress, so a slow command shows which one it is.
    std::fprintf(stderr, "  %-40s %10.1f ms wall %10.1f ms cpu\n", line.c_str(), ms.wall, ms.cpu);
    return ms;
  }

  TreeProfile profile;
  bn::repl::Session session;
  std::ostringstream out, err;
  bn::repl::Runner runner;
};

struct Latency {
  std::string command;
  Time cold;  // worst first run (by CPU time)
  Time warm;  // median of repeated runs (by CPU time)
  bool timed_out = false;
};

Time median(std::vector<Time> v) {
  std::sort(v.begin(), v.end(), [](const Time& a, const Time& b) { return a.cpu < b.cpu; });
  return v[v.size() / 2];
}

Time worst(Time a, Time b) { return a.cpu >= b.cpu ? a : b; }

Latency repeated(Fresh& f, const std::string& label, const std::string& line) {
  Latency l{label, f.run(line), {}};
  std::vector<Time> warm;
  for (int i = 0; i < 5; ++i) warm.push_back(f.run(line));
  l.warm = median(warm);
  return l;
}

// `select k` for each of the top 10 suggestions (re-listed before each, since select numbers
// its own nearby summaries); cold = the slowest first select, warm = median of re-selecting.
Latency select_top10(const CallTree& tree, bool zoom) {
  Fresh f(tree);
  f.run(zoom ? "set zoom on" : "set zoom off");
  Latency l{zoom ? "select (zoom on)" : "select (zoom off)", {}, {}};
  std::vector<Time> warm;
  for (int k = 0; k < 10; ++k) {
    f.run("suggest");
    l.cold = worst(l.cold, f.run("select " + std::to_string(k)));
    f.run("suggest");
    warm.push_back(f.run("select " + std::to_string(k)));
  }
  l.warm = median(warm);
  return l;
}

// The hottest utility: the method labelling the most nodes (seed 004's "hot utility method",
// whose many calling contexts make `path` and its extensions the most expensive).
std::string hot_method(const CallTree& tree) {
  bn::calltree::MethodId best = 0;
  for (bn::calltree::MethodId m = 0; m < tree.method_count(); ++m)
    if (tree.nodes_of(m).size() > tree.nodes_of(best).size()) best = m;
  return std::string(tree.method_name(best));
}

// Runs one command group in a child process (fresh caches, its own peak memory) and gives up
// after kGroupTimeout: a command that takes minutes is reported as such instead of hanging the
// benchmark. Updates `peak_hwm` with the child's VmHWM.
constexpr int kGroupTimeoutSeconds = 60;

template <class Group>
Latency isolated(const std::string& label, Group group, double& peak_hwm) {
  struct Result {
    Time cold, warm;
    double hwm;
  };
  std::fflush(nullptr);
  int fds[2];
  if (pipe(fds) != 0) throw bn::Error("pipe failed");
  const pid_t child = fork();
  if (child < 0) throw bn::Error("fork failed");
  if (child == 0) {
    close(fds[0]);
    int status = 0;
    try {
      const Latency l = group();
      const Result r{l.cold, l.warm, status_bytes("VmHWM")};
      status = write(fds[1], &r, sizeof r) == static_cast<ssize_t>(sizeof r) ? 0 : 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bn_interactive_bench: %s: %s\n", label.c_str(), e.what());
      status = 1;
    }
    std::fflush(nullptr);
    _exit(status);
  }
  close(fds[1]);
  pollfd pfd{fds[0], POLLIN, 0};
  Result r{};
  Latency l{label, {}, {}, false};
  if (poll(&pfd, 1, kGroupTimeoutSeconds * 1000) == 1 && read(fds[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r)) {
    l.cold = r.cold;
    l.warm = r.warm;
    peak_hwm = std::max(peak_hwm, r.hwm);
  } else {
    kill(child, SIGKILL);
    l.timed_out = true;
    l.cold = l.warm = {kGroupTimeoutSeconds * 1e3, kGroupTimeoutSeconds * 1e3};
  }
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!l.timed_out && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) throw bn::Error(label + " failed");
  return l;
}

void print_row(const char* what, const std::string& cpu, const std::string& wall, const std::string& target, bool ok) {
  std::printf("  %-32s %12s %12s %10s   %s\n", what, cpu.c_str(), wall.c_str(), target.c_str(), ok ? "ok" : "MISSED");
}

std::string fixed(double v, int digits, const char* unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%s", digits, v, unit);
  return buf;
}

int run(const std::filesystem::path& path, double load_target_s, double command_target_ms) {
  const double rss_before = status_bytes("VmRSS");
  Stopwatch watch;
  const bn::calltree::OpenedProfile opened = bn::calltree::open_profile(path);
  const Time read{watch.wall_s(), watch.cpu_s()};
  const CallTree& tree = opened.loaded.tree;
  watch = Stopwatch();
  { TreeProfile first(tree); }  // the backend's own start-up (one DFS), as `repl` pays it
  const Time backend{watch.wall_s(), watch.cpu_s()};
  const double resident = status_bytes("VmRSS") - rss_before;
  const double nodes = static_cast<double>(tree.node_count() - 1);

  const std::string hot = hot_method(tree);
  const std::string hot_short = hot.substr(hot.rfind('.', hot.rfind('.') - 1) + 1);
  std::vector<Latency> latencies;
  double peak_hwm = status_bytes("VmHWM");
  auto measure = [&](const std::string& label, auto group) { latencies.push_back(isolated(label, group, peak_hwm)); };
  measure("suggest", [&] {
    Fresh f(tree);
    return repeated(f, "suggest", "suggest");
  });
  measure("select (zoom off)", [&] { return select_top10(tree, false); });
  measure("select (zoom on)", [&] { return select_top10(tree, true); });
  measure("path " + hot_short, [&] {
    Fresh f(tree);
    return repeated(f, "path " + hot_short, "path " + hot);
  });
  measure("path " + hot_short + " (zoom on)", [&] {
    Fresh f(tree);
    f.run("set zoom on");
    return repeated(f, "path " + hot_short + " (zoom on)", "path " + hot);
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
  const Time load{read.wall + backend.wall, read.cpu + backend.cpu};
  std::printf("%s: %.0f nodes, %zu methods\n", path.filename().c_str(), nodes, tree.method_count());
  print_row("measure", "cpu", "wall", "target", true);
  bool all_ok = true;
  auto row = [&](const std::string& what, const std::string& cpu, const std::string& wall, const std::string& target,
                 bool ok) {
    print_row(what.c_str(), cpu, wall, target, ok);
    all_ok = all_ok && ok;
  };
  auto seconds = [&](const std::string& what, Time t, double target) {
    row(what, fixed(t.cpu, 3, " s"), fixed(t.wall, 3, " s"), target > 0 ? fixed(target, 1, " s") : "",
        target <= 0 || t.cpu <= target);
  };
  seconds("load: read file + build tree", read, 0);
  seconds("load: backend start-up", backend, 0);
  seconds("load: total", load, load_target_s);
  row("file bytes/node", fixed(file_bytes / nodes, 2, ""), "", "6", file_bytes / nodes <= 6.0);
  row("resident bytes/node (loaded)", fixed(resident / nodes, 1, ""), "", "64", resident / nodes <= 64.0);
  row("peak bytes/node (VmHWM)", fixed(peak / nodes, 1, ""), "", "64", peak / nodes <= 64.0);
  for (const Latency& l : latencies) {
    const std::string target = fixed(command_target_ms, 0, " ms");
    if (l.timed_out) {
      const std::string over = "> " + std::to_string(kGroupTimeoutSeconds) + " s";
      row(l.command, over, over, target, false);
      continue;
    }
    row(l.command + ", first", fixed(l.cold.cpu, 1, " ms"), fixed(l.cold.wall, 1, " ms"), target,
        l.cold.cpu <= command_target_ms);
    row(l.command + ", again", fixed(l.warm.cpu, 1, " ms"), fixed(l.warm.wall, 1, " ms"), target,
        l.warm.cpu <= command_target_ms);
  }
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
