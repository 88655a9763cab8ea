#pragma once
// The measured model's time per thread instance (docs/views.md, "measured"): instead of one hit
// per sample, each record stands for the nanoseconds of its thread's life since that thread's
// previous record (its first record: since the previous tick; records of the first tick stand
// for nothing, as nothing before them was observed). These spans partition each thread's
// observed life exactly.
//
// A RUNNABLE record with a CPU split measured its run and run-queue nanoseconds over the
// interval since its thread's previous reading, which may span earlier records that were
// blocked or waiting. Its run and queue time are placed at it (its stack is where the thread
// ran); when they exceed its own span, the waiting records of that interval give up the excess,
// latest first, so the thread's total stays its observed time. What is left over (the kernel
// books run-queue time when the thread gets a CPU, so a reading may carry queue time from
// before its interval) is counted in addition: the record then weighs its run and queue time.
// Integers throughout.
//
// No array per record: at 10M records one would cost 80 MB and, on a virtual machine, half a
// second of page faults. Spans are computed as the records are visited, tick by tick; only the
// few waiting records that give up time are kept, found by one backward pass.

#include <cstdint>
#include <utility>
#include <vector>

#include "bn/calltree/sample_data.h"

namespace bn::views::detail {

class MeasuredTime {
 public:
  // The records must be valid (scan_recording) and outlive this.
  explicit MeasuredTime(const calltree::SampleData& samples);

  // Visits the records in time order and gives each one's weight: the nanoseconds its
  // measurements weigh in all (for a record with a CPU split, run + queue + the rest of its span,
  // which is :WAIT; for any other, its span less what it gave up). Any number of cursors may run.
  class Cursor {
   public:
    explicit Cursor(const MeasuredTime& time);
    // The weights of tick k's records, in record order. Call for k = 0, 1, 2, ... in turn.
    void tick(std::size_t k, std::vector<std::uint64_t>& weights);

   private:
    const MeasuredTime& time_;
    std::vector<std::int64_t> last_seen_;  // per thread, time of its previous record
    std::size_t given_ = 0;                // next entry of time_.given_
  };

 private:
  const calltree::SampleData& samples_;
  // (record, nanoseconds it gives up), by record; few (only where a split record's time exceeds
  // its span).
  std::vector<std::pair<std::uint32_t, std::uint64_t>> given_;
};

}  // namespace bn::views::detail
