#include "repl_timing.h"

#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "bn/base/error.h"

namespace bn::bench {
namespace {

Time median(std::vector<Time> v) {
  std::sort(v.begin(), v.end(), [](const Time& a, const Time& b) { return a.cpu < b.cpu; });
  return v[v.size() / 2];
}

Time worst(Time a, Time b) { return a.cpu >= b.cpu ? a : b; }

}  // namespace

double Stopwatch::cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

long Stopwatch::minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

double Stopwatch::wall_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
}

double status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field + ":", 0) == 0) return std::strtod(line.c_str() + field.size() + 1, nullptr) * 1024.0;
  throw Error("/proc/self/status has no " + field + " line");
}

double reset_peak() {
  // Free heap pages go back to the system first, or later allocations would reuse them unseen.
  malloc_trim(0);
  std::ofstream("/proc/self/clear_refs") << "5";
  return status_bytes("VmRSS");
}

double peak_growth(double rss_at_reset) { return status_bytes("VmHWM") - rss_at_reset; }

Fresh::Fresh(const calltree::CallTree& tree, iface::Amount denominator)
    : profile(tree, denominator), session(profile), runner(session, out, err, repl::RunOptions{}) {}

Time Fresh::run(const std::string& line) {
  out.str("");
  const Stopwatch watch;
  const repl::LineResult r = runner.run_line(line, "bench");
  const Time ms{watch.wall_s() * 1e3, watch.cpu_s() * 1e3, watch.faults_since()};
  if (r != repl::LineResult::kOk || out.str().empty()) throw Error("bench command '" + line + "' failed: " + err.str());
  // Progress, so a slow command shows which one it is.
  std::fprintf(stderr, "  %-40s %10.1f ms wall %10.1f ms cpu %7ld faults\n", line.c_str(), ms.wall, ms.cpu, ms.faults);
  return ms;
}

Latency repeated(Fresh& f, const std::string& label, const std::string& line) {
  Latency l{label, f.run(line), {}};
  std::vector<Time> warm;
  for (int i = 0; i < 5; ++i) warm.push_back(f.run(line));
  l.warm = median(warm);
  return l;
}

Latency select_top10(const calltree::CallTree& tree, iface::Amount denominator, bool zoom,
                     const std::function<void(Fresh&)>& prepare) {
  Fresh f(tree, denominator);
  if (prepare) prepare(f);
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

Latency isolated(const std::string& label, const std::function<Latency()>& group, double& peak_hwm) {
  struct Result {
    Time cold, warm;
    double hwm, memory;
  };
  std::fflush(nullptr);
  int fds[2];
  if (pipe(fds) != 0) throw Error("pipe failed");
  const pid_t child = fork();
  if (child < 0) throw Error("fork failed");
  if (child == 0) {
    close(fds[0]);
    int status = 0;
    try {
      const Latency l = group();
      const Result r{l.cold, l.warm, status_bytes("VmHWM"), l.memory};
      status = write(fds[1], &r, sizeof r) == static_cast<ssize_t>(sizeof r) ? 0 : 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench: %s: %s\n", label.c_str(), e.what());
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
    l.memory = r.memory;
    peak_hwm = std::max(peak_hwm, r.hwm);
    std::fprintf(stderr, "  %-40s VmHWM %.1f MB\n", label.c_str(), r.hwm / 1e6);  // which group sets the peak
  } else {
    kill(child, SIGKILL);
    l.timed_out = true;
    l.cold = l.warm = {kGroupTimeoutSeconds * 1e3, kGroupTimeoutSeconds * 1e3};
  }
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!l.timed_out && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) throw Error(label + " failed");
  return l;
}

Latency median_of(const std::vector<Latency>& runs) {
  Latency l = runs.front();
  std::vector<Time> cold, warm;
  for (const Latency& run : runs) {
    cold.push_back(run.cold);
    warm.push_back(run.warm);
    l.timed_out = l.timed_out || run.timed_out;
  }
  l.cold = median(cold);
  l.warm = median(warm);
  return l;
}

void print_row(const char* what, const std::string& cpu, const std::string& wall, const std::string& target, bool ok,
               const std::string& faults) {
  std::printf("  %-32s %12s %12s %10s   %s", what, cpu.c_str(), wall.c_str(), target.c_str(), ok ? "ok" : "MISSED");
  std::printf(faults.empty() ? "\n" : "%*s%s\n", ok ? 6 : 2, "", faults.c_str());
}

std::string fixed(double v, int digits, const char* unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%s", digits, v, unit);
  return buf;
}

}  // namespace bn::bench
