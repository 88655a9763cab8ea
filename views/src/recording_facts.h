#pragma once
// What a recording holds that decides which model a view can use and what its header must say
// (seed 000 sec. 3: "it may not be possible to get the necessary information to report all of
// these types as distinct"), and the checks its records must pass before a view trusts them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/sample_data.h"
#include "bn/views/view_spec.h"

namespace bn::views::detail {

struct RecordingFacts {
  std::uint64_t records = 0;
  std::uint64_t runnable_state = 0;  // records in JVMTI state RUNNABLE
  std::uint64_t with_split = 0;      // of which with a CPU split (schedstat)
  std::uint64_t idle_runnable = 0;   // of which idle by their figures (thread_state.h)
  std::uint64_t blocked = 0;         // records blocked entering a monitor
  std::uint64_t blocked_with_owner = 0;
  bool one_nice = true;               // every runnable instance had the same nice value
  std::int32_t nice = 0;              // that value
  std::optional<std::uint32_t> cpus;  // the CPU count the recorder saw (metadata "cpus")
};

// Checks what a view relies on and the file format does not: ticks in time order, records
// naming known threads, owners and nodes, one record per thread per tick, and CPU figures of a
// sane size. Throws bn::Error naming the tick, thread and field.
RecordingFacts scan_recording(const calltree::CallTree& recorded, const calltree::SampleData& samples);

struct ChosenModel {
  Model model;
  std::string why;  // for the header: "asked", or why the default was chosen
};
// The model asked for, completed (measured takes the recorded CPU count), or the default: measured
// when most runnable records have a CPU split, else cpus N with the recorded N, else paper.
// Throws bn::Error when measured is asked of a recording without CPU splits.
ChosenModel choose_model(const std::optional<Model>& asked, const RecordingFacts& facts);

// Notes for the header: :PRIO necessarily empty, monitor owners missing, records the measured
// model splits by formula.
std::vector<std::string> recording_notes(const RecordingFacts& facts, const Model& model);

}  // namespace bn::views::detail
