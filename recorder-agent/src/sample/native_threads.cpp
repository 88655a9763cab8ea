#include "sample/native_threads.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "core/jvm_text.h"

namespace bn::agent {
namespace {

// getdents64's records (linux_dirent64): d_ino, d_off (8 bytes each), d_reclen (2), d_type (1),
// then the NUL-terminated name.
constexpr std::size_t kReclenAt = 16;
constexpr std::size_t kNameAt = 19;
// Room for about a thousand tasks per system call; more take several.
constexpr std::size_t kListBytes = std::size_t{32} * 1024;
// How often (in ticks) a native thread's nice value is re-read while it runs, as for Java
// threads (thread_sample.cpp).
constexpr std::uint64_t kNiceRefreshTicks = 16;

constexpr std::uint32_t kRunnableState =
    calltree::thread_state::kAlive | calltree::thread_state::kRunnable | calltree::thread_state::kInNative;

// The kernel's name of a thread of this process; empty if it is gone.
std::string comm_of(std::int32_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/comm", static_cast<int>(tid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buf[64];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  ::close(fd);
  if (n <= 0) return {};
  std::string_view name(buf, static_cast<std::size_t>(n));
  if (name.ends_with('\n')) name.remove_suffix(1);
  // 15 bytes cut wherever they fall: a name may end inside a UTF-8 sequence, which becomes U+FFFD.
  return standard_utf8(name);
}

}  // namespace

NativeThreads::NativeThreads(ThreadRegistry& registry, FrameTree& tree, std::int64_t start_ns)
    : registry_(registry), tree_(tree), start_ns_(start_ns) {}

NativeThreads::~NativeThreads() { release(); }

void NativeThreads::release() {
  if (dir_ >= 0) ::close(dir_);
  dir_ = -1;
  std::vector<std::unique_ptr<Native>>().swap(threads_);
}

bool NativeThreads::open() {
  opened_ = true;
  // Without schedstat (a kernel built without CONFIG_SCHED_INFO) there is nothing to read: no
  // native threads, rather than a failed open per thread per tick.
  SchedStatFile self;
  SchedStat probe;
  if (!self.read(current_tid(), probe)) return false;
  dir_ = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_ < 0) return false;
  buffer_.resize(kListBytes);
  return true;
}

bool NativeThreads::list_tasks() {
  tids_.clear();
  if (::lseek(dir_, 0, SEEK_SET) != 0) return false;
  while (true) {
    const long n = ::syscall(SYS_getdents64, dir_, buffer_.data(), buffer_.size());
    if (n < 0) return false;
    if (n == 0) break;
    for (long at = 0; at < n;) {
      const char* entry = buffer_.data() + at;
      unsigned short reclen = 0;
      std::memcpy(&reclen, entry + kReclenAt, sizeof reclen);
      const char* name = entry + kNameAt;
      std::int32_t tid = 0;
      const auto [end, ec] = std::from_chars(name, name + std::strlen(name), tid);
      if (ec == std::errc() && *end == '\0' && tid > 0) tids_.push_back(tid);
      at += reclen;
    }
  }
  // The kernel lists a process's tasks in the order they were created, which is the tids'
  // order until tids wrap around.
  if (!std::is_sorted(tids_.begin(), tids_.end())) std::sort(tids_.begin(), tids_.end());
  return true;
}

calltree::NodeId NativeThreads::node_of(std::string_view thread_class) {
  for (const auto& [name, node] : nodes_)
    if (name == thread_class) return node;
  const calltree::NodeId node = tree_.child(calltree::kRootNode, tree_.intern(thread_class));
  nodes_.emplace_back(thread_class, node);
  return node;
}

bool NativeThreads::read(Native& n, std::int64_t now_ns, std::uint64_t tick, bool always,
                         std::vector<calltree::SampleRecord>& out) {
  SchedStat s;
  if (!n.schedstat.read(n.tid, s)) return false;
  if (s.run_ns < n.last.run_ns || s.wait_ns < n.last.wait_ns) {  // never seen; a new baseline
    n.last = s;
    n.time_ns = now_ns;
    return true;
  }
  if (!always && s.run_ns == n.last.run_ns && s.wait_ns == n.last.wait_ns) return true;
  if (!n.has_nice || tick % kNiceRefreshTicks == 0) {
    n.nice = nice_of(n.tid);
    n.has_nice = true;
  }
  calltree::SampleRecord r;
  r.thread = n.entry.index;
  r.node = node_of(n.thread_class);
  r.state = kRunnableState;
  r.nice = n.nice;
  r.has_cpu = true;
  r.elapsed_ns = static_cast<std::uint64_t>(std::max<std::int64_t>(now_ns - n.time_ns, 0));
  r.run_ns = s.run_ns - n.last.run_ns;
  r.wait_ns = s.wait_ns - n.last.wait_ns;
  out.push_back(r);
  n.last = s;
  n.time_ns = now_ns;
  return true;
}

bool NativeThreads::adopt(Native& n, std::int64_t now_ns, bool first, std::uint64_t tick, std::int32_t sampler_tid,
                          std::vector<calltree::SampleRecord>& out) {
  std::string name = comm_of(n.tid);
  if (name.empty()) return false;
  if (n.tid != sampler_tid && registry_.names_unresolved_java_thread(name)) {
    n.state = State::kLeftToJava;
    return true;
  }
  n.thread_class = n.tid == sampler_tid ? kAgentThreadClass : jvm_thread_class(name);
  n.state = State::kNative;
  n.entry.index = registry_.allocate_index();
  n.entry.java_id = 0;  // not a Java thread (HotSpot numbers Java threads from 1)
  n.entry.os_tid = n.tid;
  n.entry.daemon = true;
  n.entry.name = std::move(name);
  n.entry.thread_class = std::string(n.thread_class);
  n.entry.start_ns = now_ns - start_ns_;
  n.dirty = true;
  ++threads_seen_;
  // At the first tick the counters so far are the baseline, and its record stands for no time:
  // what ran before the recording is not the recording's. A thread adopted later was born
  // during the recording (after the tick before its first scan, time_ns): all its time counts.
  if (first) {
    if (!n.schedstat.read(n.tid, n.last)) return false;
    n.time_ns = now_ns;
  }
  return read(n, now_ns, tick, true, out);
}

void NativeThreads::end(Native& n, std::int64_t now_ns) {
  if (n.state != State::kNative) return;
  // Once only: a second entry of the same index, moved from, would win in the file with no name
  // and no class, and its records would pass for a Java thread's.
  n.state = State::kEnded;
  n.entry.end_ns = now_ns - start_ns_;
  ended_.push_back(std::move(n.entry));
}

void NativeThreads::sample(std::int64_t now_ns, bool first, std::uint64_t tick, std::int32_t sampler_tid,
                           std::vector<calltree::SampleRecord>& out) {
  if (!opened_ && !open()) return;
  if (dir_ < 0 || !list_tasks()) return;
  registry_.java_tids(java_tids_);
  const auto is_java = [&](std::int32_t tid) {
    return tid != sampler_tid && std::binary_search(java_tids_.begin(), java_tids_.end(), tid);
  };
  // Both lists are sorted by tid: one merge finds the threads still listed, those gone and
  // those new.
  new_tids_.clear();
  std::size_t k = 0;
  for (const std::int32_t tid : tids_) {
    while (k < threads_.size() && threads_[k]->tid < tid) threads_[k++]->seen = false;
    if (k < threads_.size() && threads_[k]->tid == tid) {
      Native& n = *threads_[k++];
      n.seen = true;
      switch (n.state) {
        case State::kCandidate:
          n.seen = !is_java(tid) && adopt(n, now_ns, false, tick, sampler_tid, out);
          break;
        case State::kNative:
          if (is_java(tid)) {  // a Java thread after all, whose ThreadStart came late: ended below
            n.seen = false;
          } else {
            n.seen = read(n, now_ns, tick, false, out);
          }
          break;
        case State::kLeftToJava:
        case State::kEnded:
          break;
      }
    } else if (!is_java(tid)) {
      new_tids_.push_back(tid);
    }
  }
  while (k < threads_.size()) threads_[k++]->seen = false;
  for (auto& n : threads_)
    if (!n->seen) end(*n, now_ns);
  std::erase_if(threads_, [](const std::unique_ptr<Native>& n) { return !n->seen; });
  for (const std::int32_t tid : new_tids_) {
    auto n = std::make_unique<Native>();
    n->tid = tid;
    n->time_ns = previous_tick_ns_;
    // Before the first tick: existing threads, adopted now. Later: a candidate until the next
    // scan, so that a Java thread's ThreadStart has had time to claim its task.
    if (first && !adopt(*n, now_ns, true, tick, sampler_tid, out)) continue;
    threads_.push_back(std::move(n));
  }
  if (!new_tids_.empty())
    std::sort(threads_.begin(), threads_.end(), [](const auto& a, const auto& b) { return a->tid < b->tid; });
  previous_tick_ns_ = now_ns;
}

void NativeThreads::take_changed(std::vector<calltree::ThreadEntry>& out) {
  for (auto& n : threads_)
    if (n->dirty) {
      out.push_back(n->entry);
      n->dirty = false;
    }
  for (calltree::ThreadEntry& e : ended_) out.push_back(std::move(e));
  ended_.clear();
}

}  // namespace bn::agent
