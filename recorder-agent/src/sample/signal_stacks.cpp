#include "sample/signal_stacks.h"

#include <dlfcn.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <ctime>
#include <new>

#include "core/os_thread.h"

namespace bn::agent {
namespace {

enum Phase : std::uint64_t { kFree = 0, kAsked = 1, kWriting = 2, kAnswered = 3 };
constexpr std::uint64_t kPhaseBits = 2;
constexpr std::uint64_t kPhaseMask = (1u << kPhaseBits) - 1;
// The signal's value packs the slot index under the generation.
constexpr unsigned kIndexBits = 16;
constexpr std::uint64_t kIndexMask = (1u << kIndexBits) - 1;
constexpr std::uint64_t kGenerationMask = (std::uint64_t{1} << (64 - kIndexBits)) - 1;
// Slots are never freed (a late signal may still look one up), so their frames are bounded:
// at most 8 MiB in all, and never more than kSlotLimit requests per round (more running
// threads than that in one tick take the handshake).
constexpr int kSlotLimit = 128;
constexpr std::size_t kFrameBudgetBytes = 8u << 20;

struct Slot {
  std::atomic<std::uint64_t> word{kFree};  // generation << kPhaseBits | phase
  std::int32_t tid = 0;
  jint num_frames = SignalStacks::kUnanswered;
  std::int64_t handler_ns = 0;
  bool usable = false;
  AsyncFrame* frames = nullptr;
};

// Process-wide, like the signal disposition it serves.
struct Shared {
  JavaVM* vm = nullptr;
  AsyncWalk walk = nullptr;
  jint max_frames = 0;
  int max_slots = 0;
  pid_t pid = 0;
  std::atomic<Slot*> slots[kSlotLimit] = {};
  std::atomic<std::int32_t> unanswered{0};  // also the futex the asker sleeps on
  std::atomic<bool> asker_sleeps{false};    // so a handler makes the wake-up syscall only if needed
  std::atomic<std::int32_t> alarm{0};       // futex: rung for unusable answers and by ring()
  std::uint64_t generation = 0;             // of the last request; asker only
};
Shared shared;
static_assert(sizeof(std::atomic<std::int32_t>) == sizeof(int) && std::atomic<std::int32_t>::is_always_lock_free,
              "the futex word must be a plain int");

// Raw futex calls: async-signal-safe, unlike condition variables (the handler wakes with them).
void futex_wake(std::atomic<std::int32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<int*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}
// Sleeps while `word` still reads `seen`, at most `timeout_ns`.
void futex_wait(std::atomic<std::int32_t>& word, std::int32_t seen, std::int64_t timeout_ns) {
  const timespec wait{static_cast<time_t>(timeout_ns / 1'000'000'000), static_cast<long>(timeout_ns % 1'000'000'000)};
  syscall(SYS_futex, reinterpret_cast<int*>(&word), FUTEX_WAIT_PRIVATE, seen, &wait, nullptr, 0);
}

void ring_alarm() {
  shared.alarm.fetch_add(1);
  futex_wake(shared.alarm);
}

void on_sigprof(int, siginfo_t* info, void* ucontext) {
  // Only our own requests: not `kill -PROF`, nor a signal from another process.
  if (info == nullptr || info->si_code != SI_QUEUE || info->si_pid != shared.pid) return;
  const auto value = reinterpret_cast<std::uintptr_t>(info->si_value.sival_ptr);
  const std::uint64_t index = value & kIndexMask;
  const std::uint64_t generation = value >> kIndexBits;
  if (index >= static_cast<std::uint64_t>(shared.max_slots)) return;
  Slot* slot = shared.slots[index].load(std::memory_order_acquire);
  if (slot == nullptr) return;
  std::uint64_t expected = generation << kPhaseBits | kAsked;
  if (!slot->word.compare_exchange_strong(expected, generation << kPhaseBits | kWriting, std::memory_order_acq_rel))
    return;
  const int saved_errno = errno;
  const std::int64_t start = monotonic_ns();
  if (current_tid() != slot->tid) {
    slot->num_frames = SignalStacks::kWrongThread;
  } else {
    JNIEnv* env = nullptr;
    // GetEnv reads HotSpot's thread-local current thread: no lock, no allocation.
    if (shared.vm != nullptr &&
        (shared.vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_6) != JNI_OK || env == nullptr)) {
      slot->num_frames = SignalStacks::kNotJava;
    } else {
      AsyncTrace trace{env, 0, slot->frames};
      shared.walk(&trace, shared.max_frames, ucontext);
      slot->num_frames = trace.num_frames;
    }
  }
  slot->usable = slot->num_frames >= 0;
  for (jint i = 0; slot->usable && i < slot->num_frames; ++i) slot->usable = slot->frames[i].method != nullptr;
  slot->handler_ns = monotonic_ns() - start;
  const bool unusable = !slot->usable;  // the slot is the asker's again once ANSWERED is stored
  // Sequentially consistent with the asker's `asker_sleeps` store and futex wait: either the
  // asker's futex sees the new count and does not sleep, or this load sees it asleep.
  const bool last = shared.unanswered.fetch_sub(1) == 1;
  slot->word.store(generation << kPhaseBits | kAnswered, std::memory_order_release);
  if (last && shared.asker_sleeps.load()) futex_wake(shared.unanswered);
  if (unusable) ring_alarm();
  errno = saved_errno;
}

Slot* slot_at(int index) {
  Slot* slot = shared.slots[index].load(std::memory_order_acquire);
  if (slot != nullptr) return slot;
  slot = new (std::nothrow) Slot;
  if (slot == nullptr) return nullptr;
  slot->frames = new (std::nothrow) AsyncFrame[static_cast<std::size_t>(shared.max_frames)];
  if (slot->frames == nullptr) {
    delete slot;
    return nullptr;
  }
  shared.slots[index].store(slot, std::memory_order_release);
  return slot;
}

}  // namespace

AsyncWalk find_async_get_call_trace() { return reinterpret_cast<AsyncWalk>(dlsym(RTLD_DEFAULT, "AsyncGetCallTrace")); }

Status SignalStacks::enable(JavaVM* vm, AsyncWalk walk, jint max_frames) {
  if (walk == nullptr) return Status::error("this JVM has no AsyncGetCallTrace");
  struct sigaction current {};
  if (sigaction(SIGPROF, nullptr, &current) != 0) return Status::error("cannot read the SIGPROF handler");
  const bool ours = (current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == on_sigprof;
  if (!ours) {
    if (current.sa_handler != SIG_DFL) return Status::error("SIGPROF already has a handler (another profiler?)");
    shared.vm = vm;
    shared.walk = walk;
    shared.max_frames = std::max<jint>(max_frames, 1);
    const std::size_t per_slot = sizeof(AsyncFrame) * static_cast<std::size_t>(shared.max_frames);
    shared.max_slots = static_cast<int>(std::clamp<std::size_t>(kFrameBudgetBytes / per_slot, 4, kSlotLimit));
    shared.pid = getpid();
    struct sigaction action {};
    action.sa_sigaction = on_sigprof;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    // The causal engine's samples (causal_threads.h) wait: AsyncGetCallTrace is not reentrant.
    sigaddset(&action.sa_mask, SIGVTALRM);
    if (sigaction(SIGPROF, &action, nullptr) != 0) return Status::error("cannot install a SIGPROF handler");
  } else if (shared.vm != vm || shared.walk != walk || shared.max_frames != std::max<jint>(max_frames, 1)) {
    return Status::error("the SIGPROF handler is already set up differently");
  }
  enabled_ = true;
  return Status();
}

int SignalStacks::ask(std::int32_t tid) {
  if (!enabled_ || asked_ >= shared.max_slots) return -1;
  Slot* slot = slot_at(asked_);
  if (slot == nullptr) return -1;
  const std::uint64_t generation = ++shared.generation & kGenerationMask;
  slot->tid = tid;
  slot->num_frames = kUnanswered;
  slot->handler_ns = 0;
  slot->usable = false;
  shared.unanswered.fetch_add(1, std::memory_order_acq_rel);
  slot->word.store(generation << kPhaseBits | kAsked, std::memory_order_release);
  siginfo_t info{};
  info.si_signo = SIGPROF;
  info.si_code = SI_QUEUE;
  info.si_pid = shared.pid;
  info.si_uid = getuid();
  info.si_value.sival_ptr = reinterpret_cast<void*>(
      static_cast<std::uintptr_t>(generation << kIndexBits | static_cast<std::uint64_t>(asked_)));
  if (syscall(SYS_rt_tgsigqueueinfo, shared.pid, tid, SIGPROF, &info) != 0) {
    // No signal went out, and none of an earlier round carries this generation: take it back.
    slot->word.store(generation << kPhaseBits | kFree, std::memory_order_release);
    shared.unanswered.fetch_sub(1, std::memory_order_acq_rel);
    return -1;
  }
  return asked_++;
}

void SignalStacks::await_answers(std::int64_t timeout_ns) {
  const std::int64_t deadline = monotonic_ns() + timeout_ns;
  while (true) {
    const std::int32_t left = shared.unanswered.load(std::memory_order_acquire);
    if (left <= 0) break;
    const std::int64_t now = monotonic_ns();
    if (now >= deadline) break;
    shared.asker_sleeps.store(true);
    futex_wait(shared.unanswered, left, deadline - now);
    shared.asker_sleeps.store(false);
  }
  for (int i = 0; i < asked_; ++i) {
    Slot* slot = shared.slots[i].load(std::memory_order_acquire);
    std::uint64_t word = slot->word.load(std::memory_order_acquire);
    if ((word & kPhaseMask) == kAsked &&
        slot->word.compare_exchange_strong(word, (word & ~kPhaseMask) | kFree, std::memory_order_acq_rel)) {
      shared.unanswered.fetch_sub(1, std::memory_order_acq_rel);
      continue;
    }
    // The handler is mid-walk (it may have been preempted): it finishes without waiting for us.
    while ((slot->word.load(std::memory_order_acquire) & kPhaseMask) == kWriting) sched_yield();
  }
}

SignalStacks::Answer SignalStacks::answer(int request) const {
  const Slot* slot = shared.slots[request].load(std::memory_order_acquire);
  if ((slot->word.load(std::memory_order_acquire) & kPhaseMask) != kAnswered) return {kUnanswered, nullptr, 0, false};
  return {slot->num_frames, slot->frames, slot->handler_ns, slot->usable};
}

bool SignalStacks::has_unusable_answer() const {
  for (int i = 0; i < asked_; ++i) {
    const Slot* slot = shared.slots[i].load(std::memory_order_acquire);
    if ((slot->word.load(std::memory_order_acquire) & kPhaseMask) == kAnswered && !slot->usable) return true;
  }
  return false;
}

std::int32_t SignalStacks::alarms() { return shared.alarm.load(); }

void SignalStacks::sleep_until_alarm(std::int32_t seen, std::int64_t timeout_ns) {
  futex_wait(shared.alarm, seen, timeout_ns);
}

void SignalStacks::ring() { ring_alarm(); }

}  // namespace bn::agent
