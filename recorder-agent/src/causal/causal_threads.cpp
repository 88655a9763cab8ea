#include "causal/causal_threads.h"

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

void on_sigvtalrm(int, siginfo_t* info, void* ucontext) {
  if (info == nullptr || info->si_code != SI_TIMER) return;  // not our timers' (a kill, another timer)
  CausalThread* const thread = tls_thread;
  const CausalThreads::OnSample on_sample = g_on_sample.load(std::memory_order_acquire);
  if (thread == nullptr || on_sample == nullptr) return;
  const int saved_errno = errno;
  on_sample(*thread, ucontext, 1 + std::max(0, info->si_overrun));
  errno = saved_errno;
}

// Every thread with a timer, for stop_all().
std::mutex g_registry_mutex;
std::vector<CausalThread*> g_registry;  // guarded by g_registry_mutex
bool g_stopped = false;                 // guarded by g_registry_mutex

void free_thread(CausalThread* t) {
  delete[] t->frames;
  delete[] t->bits;
  delete t;
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
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGVTALRM;
  event._sigev_un._tid = current_tid();
  if (t->frames == nullptr || t->bits == nullptr || timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &t->timer) != 0) {
    free_thread(t);
    return nullptr;
  }
  ledger.open(t->account);
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  if (g_stopped) {
    timer_delete(t->timer);
    free_thread(t);
    return nullptr;
  }
  tls_thread = t;  // before the first signal can come
  const timespec period{static_cast<time_t>(period_ns / 1'000'000'000), static_cast<long>(period_ns % 1'000'000'000)};
  const itimerspec every{period, period};
  if (timer_settime(t->timer, 0, &every, nullptr) != 0) {
    tls_thread = nullptr;
    timer_delete(t->timer);
    free_thread(t);
    return nullptr;
  }
  t->timer_live = true;
  g_registry.push_back(t);
  return t;
}

void CausalThreads::detach_current() {
  CausalThread* const t = tls_thread;
  if (t == nullptr) return;
  tls_thread = nullptr;  // a signal still queued finds nothing
  {
    const std::lock_guard<std::mutex> lock(g_registry_mutex);
    if (t->timer_live) timer_delete(t->timer);
    std::erase(g_registry, t);
  }
  free_thread(t);
}

void CausalThreads::stop_all() {
  const std::lock_guard<std::mutex> lock(g_registry_mutex);
  g_stopped = true;
  for (CausalThread* t : g_registry) {
    if (t->timer_live) timer_delete(t->timer);
    t->timer_live = false;
  }
}

CausalThread* CausalThreads::current() { return tls_thread; }

}  // namespace bn::agent
