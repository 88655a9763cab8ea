#include "bn/base/each_in_parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace bn::base {
namespace {

// One call's work, shared by the threads that take part. A thread that wakes after the call has
// returned still holds the job, finds no index left and leaves without touching `work`.
struct Job {
  const std::function<void(std::size_t)>* work;
  std::size_t count;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> ended{0};
  std::atomic<bool> failed{false};
  std::mutex lock;
  std::condition_variable all_ended;
  std::exception_ptr first;

  // Takes indices until none is left; the thread that ends the last one wakes the caller.
  void drain() {
    for (std::size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      if (!failed.load(std::memory_order_relaxed)) {
        try {
          (*work)(i);
        } catch (...) {
          const std::lock_guard guard(lock);
          if (!first) first = std::current_exception();
          failed.store(true, std::memory_order_relaxed);
        }
      }
      if (ended.fetch_add(1) + 1 == count) {
        const std::lock_guard guard(lock);
        all_ended.notify_all();
      }
    }
  }
};

class Workers {
 public:
  // The process's workers, one per core beyond the first, started on first use and never
  // stopped: they wait for work, and the process's exit ends them.
  static Workers& shared() {
    static Workers* const workers = new Workers();  // never destroyed: a worker may still wait on it
    return *workers;
  }

  // Whether the job was handed to the workers (false: they are busy, or there are none).
  bool offer(const std::shared_ptr<Job>& job) {
    if (threads_ == 0 || busy_.exchange(true)) return false;
    {
      const std::lock_guard guard(lock_);
      job_ = job;
      ++generation_;
    }
    wake_.notify_all();
    return true;
  }
  void release() { busy_.store(false); }

 private:
  Workers() {
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    for (unsigned t = 1; t < cores; ++t) {
      try {
        std::thread([this] { serve(); }).detach();
        ++threads_;
      } catch (const std::system_error&) {
        break;  // no more threads to be had: those started share the work
      }
    }
  }

  void serve() {
    std::uint64_t seen = 0;
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock guard(lock_);
        wake_.wait(guard, [&] { return generation_ != seen; });
        seen = generation_;
        job = job_;
      }
      job->drain();
    }
  }

  std::mutex lock_;
  std::condition_variable wake_;
  std::shared_ptr<Job> job_;  // the latest job offered
  std::uint64_t generation_ = 0;
  std::atomic<bool> busy_{false};
  unsigned threads_ = 0;
};

}  // namespace

void for_each_in_parallel(std::size_t count, const std::function<void(std::size_t)>& work) {
  auto job = std::make_shared<Job>();
  job->work = &work;
  job->count = count;
  Workers& workers = Workers::shared();
  const bool shared = count > 1 && workers.offer(job);
  job->drain();
  if (shared) {
    std::unique_lock guard(job->lock);
    job->all_ended.wait(guard, [&] { return job->ended.load() == count; });
    guard.unlock();
    workers.release();
  }
  if (job->first) std::rethrow_exception(job->first);
}

}  // namespace bn::base
