#pragma once
// Splits every thread instance (one thread's record at one tick) into its typed-time
// measurements (seed 000 sec. 4 and 5.2, Table 1): the pseudo-method below its stack, the weight
// of the hit it gets, and the refinement below it. The weights of one instance sum to its
// Thread View hit for "all other" call paths (Table 1): 1 under the paper and cpus models, the
// nanoseconds it stands for under measured. The Server View keeps only the :RUN measurements,
// whose weights are exactly its hits.
//
// Per instance t of nice v, with h, e, share and credits as in competition.h:
//   t runnable, h >= P:  :PRIO, 1, split over the classes of the threads above (credits)
//   t runnable, h < P:   :RUN, share;  :LOAD, 1 - share, split over t's level's other classes
//   t not runnable:      :MONITOR, 1, below it the holder's class and stack; or :WAIT, 1
// measured, t RUNNABLE with a CPU split: :RUN, run_ns; its queue time wait_ns as :PRIO (h >= P)
//   or :LOAD, credited as above (:UNKNOWN when no thread of the JVM competed at the tick); the
//   rest of its time :WAIT. Other records weigh their span (measured_time.h), runnable ones
//   split by the formula above. Each record's parts are then whole nanoseconds (largest
//   remainder), so a measured view has denominator 1 before its normalisation.

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "bn/calltree/sample_data.h"
#include "bn/views/pseudo_names.h"
#include "bn/views/thread_classes.h"
#include "bn/views/view_spec.h"
#include "competition.h"
#include "measured_time.h"
#include "weight.h"

namespace bn::views::detail {

inline constexpr std::uint32_t kNoClass = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t kUnknownClass = kNoClass - 1;
inline constexpr std::uint32_t kNoRecord = std::numeric_limits<std::uint32_t>::max();

struct Part {
  TimeType type = TimeType::wait;
  Weight weight;
  // Below the typed time: a :THREAD node of this class, :UNKNOWN (kUnknownClass) or nothing.
  std::uint32_t by = kNoClass;
  // :MONITOR with a known holder: the holder's record at the same tick, whose stack goes below
  // the :THREAD node; kNoRecord when the holder has no record there (then :UNKNOWN goes below).
  std::uint32_t holder = kNoRecord;
};

class TypedTime {
 public:
  // `measured` only for the measured model (measured_time.h). `refine`: credit :LOAD and :PRIO to
  // classes; a view that keeps only :RUN (the Server View) needs no credits. The data must
  // outlive this.
  TypedTime(const calltree::SampleData& samples, const ThreadClasses& classes, Model model,
            const MeasuredTime* measured, bool refine = true);

  // Calls visit(record index, parts) for every record of class `only` (kNoClass: every record),
  // tick by tick. Parts of weight 0 are left out. One pass at a time.
  template <class Visit>
  void for_each(std::uint32_t only, Visit&& visit) {
    if (measured_) cursor_.emplace(*measured_);
    for (std::size_t k = 0; k < samples_.ticks.size(); ++k) {
      start_tick(k);
      const calltree::SampleTick& tick = samples_.ticks[k];
      for (std::uint32_t i = tick.first_record; i < tick.first_record + tick.record_count; ++i) {
        if (only != kNoClass && classes_.of_thread[samples_.records[i].thread] != only) continue;
        split(i, parts_);
        visit(i, std::span<const Part>(parts_));
      }
    }
  }
  // Whether record i of the current tick is runnable (thread_state.h).
  bool runnable(std::uint32_t i) const { return runnable_[i - first_]; }

 private:
  void start_tick(std::size_t k);
  void split(std::uint32_t i, std::vector<Part>& parts);
  // Runnable time of `total` hits of record r: :PRIO, or :RUN and :LOAD by its share.
  void competing(const calltree::SampleRecord& r, Weight total, std::vector<Part>& parts);
  // Time in a run queue: :PRIO when preempted, else :LOAD, credited to classes.
  void queued(const calltree::SampleRecord& r, bool runnable, Weight total, std::vector<Part>& parts);
  void monitor(const calltree::SampleRecord& r, Weight total, std::vector<Part>& parts) const;

  const calltree::SampleData& samples_;
  const ThreadClasses& classes_;
  const Model model_;
  const MeasuredTime* measured_;
  std::optional<MeasuredTime::Cursor> cursor_;
  std::vector<std::uint64_t> weights_;  // the current tick's measured weights
  const bool refine_;
  Competition competition_;
  std::uint32_t first_ = 0;  // the current tick's first record
  std::vector<std::uint8_t> runnable_;
  // The current tick's record of each thread: valid where tick_of_thread_ == current tick + 1.
  std::vector<std::uint32_t> record_of_thread_;
  std::vector<std::size_t> tick_of_thread_;
  std::size_t tick_ = 0;
  std::vector<Part> parts_;
  std::vector<Credit> credits_;
};

}  // namespace bn::views::detail
