#pragma once
// Timing REPL commands the way a user waits for them, shared by the benchmarks: CPU and wall
// time of this process, a fresh REPL session per command group (cold backend caches), each group
// in a child process with its own peak memory and a time limit, and the result rows.
//
// The machine is shared (other builds run beside the benchmark), so wall time includes waiting
// for a core; CPU time is what the work costs and what wall time would be on an idle machine.
// Both are printed; targets are judged on CPU.

#include <chrono>
#include <functional>
#include <sstream>
#include <string>

#include "bn/calltree/tree_profile.h"
#include "bn/repl/runner.h"
#include "bn/search/session.h"

namespace bn::bench {

// Page faults are counted beside the times: on this project's virtual machine a fresh page can
// cost far more than the kernel's zeroing of it (the host backs guest memory lazily and takes back
// what the guest frees, virtio-balloon free page reporting), so a command that maps new memory
// varies with the host, and the count tells such a figure from one of our own work. System time
// is not shown: with tick-based CPU accounting (CONFIG_TICK_CPU_ACCOUNTING, HZ=250 here) getrusage
// splits the precise CPU time into user and system by 4 ms samples, so for a command of a few
// milliseconds its "system time" is one sample or none (bench/LOG.md, "Labels").
struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpu_seconds();
  long faults = minor_faults();
  static double cpu_seconds();
  static long minor_faults();  // of this process so far; a huge page counts once
  double wall_s() const;
  double cpu_s() const { return cpu_seconds() - cpu; }
  long faults_since() const { return minor_faults() - faults; }
};

struct Time {
  double wall = 0, cpu = 0;  // same unit as the caller's (s or ms)
  long faults = 0;           // minor page faults during the run
};

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM").
double status_bytes(const std::string& field);

// One REPL session on a fresh TreeProfile (costs over `denominator`), so every command group
// starts with cold caches.
struct Fresh {
  explicit Fresh(const calltree::CallTree& tree, iface::Amount denominator = 1);
  // Runs a line, returns its latency in ms; a failing command aborts the benchmark.
  Time run(const std::string& line);

  calltree::TreeProfile profile;
  search::Session session;
  std::ostringstream out, err;
  repl::Runner runner;
};

struct Latency {
  std::string command;
  Time cold;  // worst first run (by CPU time)
  Time warm;  // median of repeated runs (by CPU time)
  bool timed_out = false;
  double memory = 0;                                     // bytes, as the group measured them (peak_growth)
  std::string cold_name = "first", warm_name = "again";  // what the two rows are called
  double cold_target_ms = 0;                             // when not the benchmark's command target
  bool warm_judged = true;                               // against the command target
};

// Returns free heap pages to the system and resets this process's VmHWM to its VmRSS (Linux
// clear_refs), so that peak_growth() measures the peak of what runs after. Returns the VmRSS at
// the reset.
double reset_peak();
// VmHWM minus `rss_at_reset`: the most memory held at once since reset_peak().
double peak_growth(double rss_at_reset);

// The first run of `line` and the median of five more.
Latency repeated(Fresh& f, const std::string& label, const std::string& line);
// `select k` for each of the top 10 suggestions (re-listed before each, since select numbers
// its own nearby summaries); cold = the slowest first select, warm = median of re-selecting.
// `prepare`, when given, runs on the fresh session first (labels, say).
Latency select_top10(const calltree::CallTree& tree, iface::Amount denominator, bool zoom,
                     const std::function<void(Fresh&)>& prepare = nullptr);

// Runs one command group in a child process (fresh caches, its own peak memory) and gives up
// after a minute: a command that takes minutes is reported as such instead of hanging the
// benchmark. Raises `peak_hwm` to the child's VmHWM.
inline constexpr int kGroupTimeoutSeconds = 60;
Latency isolated(const std::string& label, const std::function<Latency()>& group, double& peak_hwm);

// The median of several runs of one group, first runs and repeated ones apart (by CPU time).
Latency median_of(const std::vector<Latency>& runs);

void print_row(const char* what, const std::string& cpu, const std::string& wall, const std::string& target, bool ok,
               const std::string& faults = "");
std::string fixed(double v, int digits, const char* unit);

}  // namespace bn::bench
