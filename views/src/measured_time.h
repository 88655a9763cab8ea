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

#include <cstdint>
#include <vector>

#include "bn/calltree/sample_data.h"

namespace bn::views::detail {

// Per record of `samples`, the nanoseconds its measurements weigh in all: for a record with a
// CPU split, run + queue + the rest of its span (:WAIT); for any other, its span less what it
// gave up. The records must be valid (validate_records).
std::vector<std::uint64_t> measured_weights(const calltree::SampleData& samples);

}  // namespace bn::views::detail
