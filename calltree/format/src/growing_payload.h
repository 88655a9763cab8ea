#pragma once
// A chunk payload read while it is decompressed (ChunkPrefetch, chunk_prefetch.h): the thread
// that decompresses it says how many bytes are out, the threads that decode it wait for them. At
// 10M nodes the NODE chunk's decompression outlasts the names' decoding by ~35 ms, which the main
// thread spent waiting for the whole chunk (bench/LOG.md, "Where the open's wall time goes", its
// timeline); decoded as it grows, the columns follow zstd instead. Internal to bn_calltree.

#include <atomic>
#include <cstddef>
#include <limits>

namespace bn::calltree {

class GrowingPayload {
 public:
  // Thrown to a reader waiting for bytes the decompression failed to produce. Not a bn::Error: the
  // reader then decompresses the chunk whole, whose error says why (chunk_framing.h).
  struct Failed {};

  // Decompressing thread: the first `ready` bytes are out (each count at least the one before).
  void publish(std::size_t ready) {
    ready_.store(ready, std::memory_order_release);
    ready_.notify_all();
  }
  // Decompressing thread, once: whether the payload came out whole and checked (content checksum,
  // the declared size, nothing after the frame).
  void finish(bool whole) {
    if (!whole) publish(kFailed);
    outcome_.store(whole ? kWhole : kBroken, std::memory_order_release);
    outcome_.notify_all();
    ready_.notify_all();
  }
  // Before the next payload: nothing out yet.
  void restart() {
    ready_.store(0, std::memory_order_relaxed);
    outcome_.store(kRunning, std::memory_order_relaxed);
  }

  // Reading threads: how many bytes are out, more than `have` (waiting for them), unless `have`
  // is all there will be. Throws Failed once the decompression failed.
  std::size_t wait_past(std::size_t have) const {
    std::size_t ready = ready_.load(std::memory_order_acquire);
    while (ready == have && outcome_.load(std::memory_order_acquire) == kRunning) {
      ready_.wait(have, std::memory_order_acquire);
      ready = ready_.load(std::memory_order_acquire);
    }
    if (ready == kFailed) throw Failed{};
    return ready;
  }
  std::size_t ready() const {
    const std::size_t ready = ready_.load(std::memory_order_acquire);
    if (ready == kFailed) throw Failed{};
    return ready;
  }
  // Waits for the decompression to end: whether the payload came out whole.
  bool wait_whole() const {
    outcome_.wait(kRunning, std::memory_order_acquire);
    return outcome_.load(std::memory_order_acquire) == kWhole;
  }

 private:
  static constexpr std::size_t kFailed = std::numeric_limits<std::size_t>::max();
  static constexpr int kRunning = 0, kWhole = 1, kBroken = 2;
  std::atomic<std::size_t> ready_{0};
  std::atomic<int> outcome_{kRunning};
};

}  // namespace bn::calltree
