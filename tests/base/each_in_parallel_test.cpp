// Work spread over the cores (bn/base/each_in_parallel.h): every index once, whatever the
// threads; the first exception rethrown once every call has ended; a call from inside a call,
// and calls from several threads at once, run to the end instead of waiting for each other.

#include "bn/base/each_in_parallel.h"

#include <doctest/doctest.h>

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using bn::base::for_each_in_parallel;

TEST_CASE("every index is worked on exactly once, for any count") {
  for (const std::size_t count : {0, 1, 2, 3, 10, 1000}) {
    std::vector<std::atomic<int>> calls(count);
    for_each_in_parallel(count, [&](std::size_t i) { calls[i].fetch_add(1); });
    for (std::size_t i = 0; i < count; ++i) CHECK(calls[i].load() == 1);
  }
}

TEST_CASE("one call after another reuses the threads and loses no index") {
  std::atomic<std::size_t> sum{0};
  for (int round = 0; round < 2000; ++round) for_each_in_parallel(4, [&](std::size_t i) { sum.fetch_add(i + 1); });
  CHECK(sum.load() == 2000 * 10);
}

TEST_CASE("an exception reaches the caller once every call has ended") {
  std::atomic<int> running{0}, ended{0};
  bool thrown = false;
  try {
    for_each_in_parallel(64, [&](std::size_t i) {
      running.fetch_add(1);
      if (i == 5) {
        running.fetch_sub(1);
        throw std::runtime_error("index 5");
      }
      std::this_thread::yield();
      running.fetch_sub(1);
      ended.fetch_add(1);
    });
  } catch (const std::runtime_error& e) {
    thrown = true;
    CHECK(std::string(e.what()) == "index 5");
    CHECK(running.load() == 0);  // nothing still running when the caller sees the error
  }
  CHECK(thrown);
  // And the threads are free again.
  std::atomic<int> after{0};
  for_each_in_parallel(8, [&](std::size_t) { after.fetch_add(1); });
  CHECK(after.load() == 8);
}

TEST_CASE("a call from inside a call runs there, and calls from several threads all finish") {
  std::atomic<int> inner{0};
  for_each_in_parallel(4, [&](std::size_t) { for_each_in_parallel(5, [&](std::size_t) { inner.fetch_add(1); }); });
  CHECK(inner.load() == 20);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&] {
      for (int round = 0; round < 200; ++round) for_each_in_parallel(3, [&](std::size_t) { total.fetch_add(1); });
    });
  for (std::thread& c : callers) c.join();
  CHECK(total.load() == 4 * 200 * 3);
}
