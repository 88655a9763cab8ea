#pragma once
// Who competes for the CPUs at one tick (seed 000 sec. 5.2, Table 1): the runnable thread
// instances grouped into priority levels, the share of a CPU each level gets on P CPUs, and the
// thread classes to credit below :LOAD and :PRIO (sec. 4: "a refinement of :PRIO or :LOAD tells
// us the thread classes for which the current thread is waiting").
//
// Priority is the OS nice value (SampleRecord::nice): on Linux it decides who runs, Java
// priorities do not. A lower nice is a higher priority. For a thread t of nice v,
//   h = runnable instances with nice < v,   e = runnable instances with nice == v (t included),
//   share(t) = min(1, max(0, P - h) / e)    (Table 1 is P = 1: 1/e when h = 0, else 0).
// Levels are served from the highest priority down, each fully (share 1) until the CPUs run
// out, so the levels above v hold min(P, h) CPUs; when h >= P they hold all P.
//
// Credits, as fractions of the hit they refine:
//   :LOAD  the other e - 1 runnable threads of t's level, each 1/(e - 1) (on one CPU each holds
//          it 1/e of the time, which is 1/(e - 1) of t's (e - 1)/e wait);
//   :PRIO  the threads of the levels above, each its share of a CPU divided by P (they hold all
//          P CPUs, so the credits sum to 1).

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "bn/calltree/sample_data.h"
#include "weight.h"

namespace bn::views::detail {

// A thread class and the fraction of a hit credited to it.
struct Credit {
  std::uint32_t thread_class = 0;
  Weight fraction;
};

class Competition {
 public:
  explicit Competition(std::uint32_t cpus) : cpus_(cpus) {}

  // The tick's records, whether each is runnable (runnable.h), and the class of every thread.
  void reset(std::span<const calltree::SampleRecord> records, std::span<const std::uint8_t> runnable,
             std::span<const std::uint32_t> class_of_thread);

  // h: runnable instances of higher priority than nice `v`.
  std::uint32_t higher(std::int32_t v) const;
  // True when the levels above `v` hold every CPU (h >= P): a runnable thread of nice v waits.
  bool preempted(std::int32_t v) const { return higher(v) >= cpus_; }
  // The share of a CPU of a runnable instance of nice `v` (one of the level's e).
  Weight share(std::int32_t v) const;
  // :LOAD credits for a thread of nice `v` and class `own`, `runnable` if it is one of its
  // level's instances: the classes of the level's other runnable instances, each
  // count / (number of others). Empty when there are no others.
  void load_credits(std::int32_t v, std::uint32_t own, bool runnable, std::vector<Credit>& out) const;
  // :PRIO credits for a thread of nice `v` when preempted(v): the classes of the levels above,
  // each the CPUs its instances held / P; they sum to 1.
  const std::vector<Credit>& prio_credits(std::int32_t v);

 private:
  struct Level {
    std::int32_t nice = 0;
    std::uint32_t e = 0;       // runnable instances
    std::uint32_t higher = 0;  // h of the level
    // (class, instances), sorted by class.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> classes;
  };
  // Index of the first level with nice >= v (the levels are sorted by nice, highest priority first).
  std::size_t position(std::int32_t v) const;
  const Level* level(std::int32_t v) const;

  std::uint32_t cpus_;
  std::vector<Level> levels_;
  // :PRIO credits by position (the number of levels above), computed on first use in the tick.
  std::vector<std::vector<Credit>> prio_;
  std::vector<std::uint8_t> prio_done_;
};

}  // namespace bn::views::detail
