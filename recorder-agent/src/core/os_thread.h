#pragma once
// What Linux knows about a thread and the JVM does not tell: its OS id, its CPU and run-queue
// time (schedstat), its nice value. Plain syscalls and /proc reads; no allocation on the
// per-tick paths.

#include <cstdint>
#include <ctime>
#include <string>
#include <unordered_map>
#include <vector>

namespace bn::agent {

std::int32_t current_tid();
std::int64_t monotonic_ns();
// `ns` nanoseconds as a timespec (a duration, or a CLOCK_MONOTONIC time).
inline timespec timespec_of(std::int64_t ns) {
  return {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}
std::int64_t realtime_ns();
std::int64_t thread_cpu_ns();  // CPU time of the calling thread
// CPU time of another thread of this process (Linux per-thread CPU clock); -1 if it is gone.
std::int64_t thread_cpu_ns(std::int32_t tid);

struct SchedStat {
  std::uint64_t run_ns = 0;   // time on a CPU
  std::uint64_t wait_ns = 0;  // time runnable in a run queue, waiting for a CPU
};
// /proc/self/task/TID/schedstat of one thread, kept open between reads: re-reading an open
// /proc file skips the path walk and file set-up of an open(), which perf put at ~10% of the
// sampler's CPU at 10 ms. An open file stays bound to its task, so after the thread exits it
// reads nothing rather than a later thread that reused the tid. At most a few dozen files are
// kept open per process, so a JVM with thousands of threads never runs short of descriptors;
// beyond that a read opens and closes the file.
class SchedStatFile {
 public:
  SchedStatFile() = default;
  SchedStatFile(const SchedStatFile&) = delete;
  SchedStatFile& operator=(const SchedStatFile&) = delete;
  ~SchedStatFile();
  // False if the thread is gone or the kernel lacks schedstat.
  bool read(std::int32_t tid, SchedStat& out);

 private:
  int fd_ = -1;
};
// Whether the kernel has thread `tid` running or in a run queue (state R in
// /proc/self/task/TID/stat), as opposed to sleeping or blocked; false if unknown.
bool is_runnable_now(std::int32_t tid);
// The nice value of one thread (Linux: setpriority works per thread), or 0 if unknown.
int nice_of(std::int32_t tid);

// /proc/self/task/*/comm: thread name (as the kernel truncated it) → OS tids with that name.
using TaskNames = std::unordered_map<std::string, std::vector<std::int32_t>>;
TaskNames task_names();
// The name the kernel shows for a thread HotSpot named `java_name`: at most 15 bytes.
std::string kernel_thread_name(const std::string& java_name);

// The command line of this process, arguments separated by spaces.
std::string process_command_line();

}  // namespace bn::agent
