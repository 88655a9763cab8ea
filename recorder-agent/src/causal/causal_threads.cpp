#include "causal/causal_threads.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <new>
#include <vector>

#include "core/os_thread.h"

namespace bn::agent {
namespace {

[[gnu::tls_model("initial-exec")]] thread_local CausalThread* tls_thread = nullptr;
std::atomic<CausalThreads::OnSample> g_on_sample{nullptr};
std::atomic<std::uint64_t> g_perf_threads{0};
std::atomic<std::uint64_t> g_timer_threads{0};

// Every thread with a clock, for stop_all().
std::mutex g_registry_mutex;
std::vector<CausalThread*> g_registry;  // guarded by g_registry_mutex
bool g_stopped = false;                 // guarded by g_registry_mutex

// Arms the perf event for one more overflow: it disables itself after each (REFRESH 1), so a
// signal still being handled is never followed by another for the same period.
void arm(int fd) {
  ioctl(fd, PERF_EVENT_IOC_RESET, 0);
  ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
}

void on_sigvtalrm(int, siginfo_t* info, void* ucontext) {
  CausalThread* const thread = tls_thread;
  const CausalThreads::OnSample on_sample = g_on_sample.load(std::memory_order_acquire);
  if (info == nullptr || thread == nullptr || on_sample == nullptr) return;
  const bool perf = thread->perf_fd >= 0 && info->si_code == POLL_HUP && info->si_fd == thread->perf_fd;
  if (!perf && info->si_code != SI_TIMER) return;  // not our clocks' (a kill, another timer)
  const int saved_errno = errno;
  on_sample(*thread, ucontext, perf ? 1 : 1 + std::max(0, info->si_overrun));
  if (perf) arm(thread->perf_fd);
  errno = saved_errno;
}

void free_thread(CausalThread* t) {
  delete[] t->frames;
  delete[] t->bits;
  delete t;
}

// A task-clock event of the calling thread that signals it every `period_ns` of its CPU in user
// mode, disarmed; -1 if the kernel refuses.
int open_perf_clock(std::int64_t period_ns) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_SOFTWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = static_cast<std::uint64_t>(period_ns);
  attr.disabled = 1;
  attr.exclude_kernel = 1;  // what perf_event_paranoid = 2 allows; Java code runs in user mode
  attr.exclude_hv = 1;
  attr.wakeup_events = 1;
  const auto fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0) return -1;
  f_owner_ex owner{F_OWNER_TID, current_tid()};
  if (fcntl(fd, F_SETFL, O_ASYNC) != 0 || fcntl(fd, F_SETSIG, SIGVTALRM) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

bool arm_timer(timer_t timer, std::int64_t period_ns) {
  const timespec period = timespec_of(period_ns);
  const itimerspec every{period, period};
  return timer_settime(timer, 0, &every, nullptr) == 0;
}

bool open_timer(CausalThread& t) {
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGVTALRM;
  event._sigev_un._tid = current_tid();
  return timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &t.timer) == 0;
}

void close_clock(CausalThread& t) {
  if (!t.clock_live) return;
  if (t.perf_fd >= 0)
    close(t.perf_fd);
  else
    timer_delete(t.timer);
  t.clock_live = false;
}

}  // namespace

Status CausalThreads::install(OnSample on_sample) {
  struct sigaction current {};
  if (sigaction(SIGVTALRM, nullptr, &current) != 0) return Status::error("cannot read the SIGVTALRM handler");
  const bool ours = (current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == on_sigvtalrm;
  if (!ours && current.sa_handler != SIG_DFL)
    return Status::error("SIGVTALRM already has a handler (the program's, or another profiler's)");
  g_on_sample.store(on_sample, std::memory_order_release);
  if (ours) return Status();
  struct sigaction action {};
  action.sa_sigaction = on_sigvtalrm;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGPROF);
  if (sigaction(SIGVTALRM, &action, nullptr) != 0) return Status::error("cannot install the SIGVTALRM handler");
  return Status();
}

CausalThread* CausalThreads::attach_current(std::int64_t period_ns, jint max_frames, const DelayLedger& ledger) {
  if (tls_thread != nullptr) return tls_thread;
  auto* t = new (std::nothrow) CausalThread;
  if (t == nullptr) return nullptr;
  t->max_frames = max_frames;
  t->frames = new (std::nothrow) AsyncFrame[static_cast<std::size_t>(max_frames)];
  t->bits = new (std::nothrow) std::uint64_t[static_cast<std::size_t>(max_frames)];
  if (t->frames == nullptr || t->bits == nullptr) {
    free_thread(t);
    return nullptr;
  }
  t->perf_fd = open_perf_clock(period_ns);
  if (t->perf_fd < 0 && !open_timer(*t)) {
    free_thread(t);
    return nullptr;
  }
  t->period_ns = period_ns;
  ledger.open(t->account);
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  t->clock_live = true;
  if (g_stopped) {
    close_clock(*t);
    free_thread(t);
    return nullptr;
  }
  tls_thread = t;  // before the first signal can come
  bool armed = true;
  if (t->perf_fd >= 0) {
    arm(t->perf_fd);
  } else {
    armed = arm_timer(t->timer, period_ns);
  }
  if (!armed) {
    tls_thread = nullptr;
    close_clock(*t);
    free_thread(t);
    return nullptr;
  }
  (t->perf_fd >= 0 ? g_perf_threads : g_timer_threads).fetch_add(1, std::memory_order_relaxed);
  g_registry.push_back(t);
  return t;
}

void CausalThreads::detach_current() {
  CausalThread* const t = tls_thread;
  if (t == nullptr) return;
  tls_thread = nullptr;  // a signal still queued finds nothing
  {
    const std::lock_guard<std::mutex> lock(g_registry_mutex);
    close_clock(*t);
    std::erase(g_registry, t);
  }
  free_thread(t);
}

CausalThread* CausalThreads::current() { return tls_thread; }

void CausalThreads::set_period(CausalThread& t, std::int64_t period_ns) {
  t.period_ns = period_ns;
  if (t.perf_fd >= 0) {
    auto period = static_cast<std::uint64_t>(period_ns);
    ioctl(t.perf_fd, PERF_EVENT_IOC_PERIOD, &period);
  } else {
    arm_timer(t.timer, period_ns);
  }
}

void CausalThreads::stop_all() {
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  g_stopped = true;
  for (CausalThread* t : g_registry) close_clock(*t);
}

std::uint64_t CausalThreads::perf_threads() { return g_perf_threads.load(std::memory_order_relaxed); }
std::uint64_t CausalThreads::timer_threads() { return g_timer_threads.load(std::memory_order_relaxed); }

}  // namespace bn::agent
