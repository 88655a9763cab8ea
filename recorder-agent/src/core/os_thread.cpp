#include "core/os_thread.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>

namespace bn::agent {
namespace {

// Descriptors held by SchedStatFile objects, bounded by kMaxKeptOpenSchedstat.
constexpr int kMaxKeptOpenSchedstat = 64;
std::atomic<int> kept_open_schedstat{0};

std::int64_t clock_ns(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

std::int32_t current_tid() { return static_cast<std::int32_t>(syscall(SYS_gettid)); }
std::int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }
std::int64_t realtime_ns() { return clock_ns(CLOCK_REALTIME); }
std::int64_t thread_cpu_ns() { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

std::int64_t thread_cpu_ns(std::int32_t tid) {
  // The kernel's encoding of "scheduler CPU clock of thread `tid`" (CPUCLOCK_SCHED |
  // CPUCLOCK_PERTHREAD_MASK, linux/posix-timers.h); one syscall, no /proc read.
  const auto id = static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6);
  timespec ts{};
  if (clock_gettime(id, &ts) != 0) return -1;
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

SchedStatFile::~SchedStatFile() {
  if (fd_ >= 0) {
    close(fd_);
    kept_open_schedstat.fetch_sub(1, std::memory_order_relaxed);
  }
}

bool SchedStatFile::read(std::int32_t tid, SchedStat& out) {
  int fd = fd_;
  if (fd < 0) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", static_cast<int>(tid));
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    if (kept_open_schedstat.fetch_add(1, std::memory_order_relaxed) < kMaxKeptOpenSchedstat) {
      fd_ = fd;
    } else {
      kept_open_schedstat.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  char buf[96];
  // pread at offset 0 makes the kernel format the file afresh on every read.
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (fd != fd_) close(fd);
  if (n <= 0) return false;
  // "RUN_NS WAIT_NS SLICES\n"; from_chars rather than sscanf, which showed in perf.
  const char* end = buf + n;
  std::uint64_t run = 0, wait = 0;
  auto [p, ec] = std::from_chars(buf, end, run);
  if (ec != std::errc() || p == end || *p != ' ') return false;
  if (std::from_chars(p + 1, end, wait).ec != std::errc()) return false;
  out.run_ns = run;
  out.wait_ns = wait;
  return true;
}

bool is_runnable_now(std::int32_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", static_cast<int>(tid));
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[256];
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  // "TID (COMM) STATE ...": the name may hold spaces and parentheses, so the last ')' ends it.
  const char* end = static_cast<const char*>(memrchr(buf, ')', static_cast<std::size_t>(n)));
  return end != nullptr && end + 2 < buf + n && end[2] == 'R';
}

int nice_of(std::int32_t tid) {
  errno = 0;
  const int v = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  return errno == 0 ? v : 0;
}

TaskNames task_names() {
  TaskNames out;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return out;
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/comm");
    std::string name;
    if (!std::getline(in, name)) continue;
    out[name].push_back(static_cast<std::int32_t>(std::atoi(e->d_name)));
  }
  closedir(dir);
  return out;
}

std::string kernel_thread_name(const std::string& java_name) {
  // TASK_COMM_LEN is 16 including the terminating NUL.
  return java_name.substr(0, 15);
}

std::string process_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw)
    if (c == '\0') c = ' ';
  return raw;
}

}  // namespace bn::agent
