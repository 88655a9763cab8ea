#pragma once
// The experiments of a causal recording (seed 003, JCoz; Coz's virtual speedup): while a thread
// runs code that satisfies the experiment's target, every other thread is paused for a share of
// that time, and the rate of progress of the program, measured at its progress points, shows
// what a real speedup of the target would give. The recorder's mode=causal writes these beside
// the ordinary sampled call tree of the same run; `bottlenecks repl`'s `causal` command reads
// them, from one recording or several of the same program (their experiments pool, targets and
// progress points matched by name). The native format keeps them in an ancillary chunk
// (causal_records.h).

#include <cstdint>
#include <string>
#include <vector>

namespace bn::calltree {

// What an experiment speeds up virtually: a label (all its summaries together: a sample counts
// when its stack satisfies any of them) or one call sequence. Summaries are in the REPL's
// syntax, one element per entry, outermost first: a full method name (`pkg.Class.method`), the
// gap `..`, or an aspect `:NAME` whose pattern `aspects` defines.
struct CausalTarget {
  std::string name;  // the label's name, or the sequence joined by ";" when it is no label
  bool is_label = false;
  std::vector<std::vector<std::string>> summaries;
  friend bool operator==(const CausalTarget&, const CausalTarget&) = default;
};

// Where the program's progress is counted.
struct ProgressPoint {
  enum class Kind : std::uint8_t {
    // Every completed call of the method `name` (`pkg.Class.method`) is one unit.
    throughput,
    // The whole run is one unit (progress=end, batch programs): each run is one experiment.
    end,
    // Requests from the entry of one method to a return of another (`BEGIN:END`, Coz's latency
    // points): an entry of BEGIN is an arrival (the unit counted), a return of END a departure.
    latency,
  };
  std::string name;
  Kind kind = Kind::throughput;
  friend bool operator==(const ProgressPoint&, const ProgressPoint&) = default;
};

// What an experiment measured at a latency point besides its arrivals (Little's law: the mean
// latency is the time in flight per arrival).
struct InFlight {
  std::uint64_t departures = 0;
  // The integral of the number of requests in flight over the experiment, in virtual time (the
  // pauses inserted taken out, as from the duration): ns x requests. Negative only if END returns
  // more often than BEGIN is entered.
  std::int64_t area_ns = 0;
  friend bool operator==(const InFlight&, const InFlight&) = default;
};

struct CausalExperiment {
  std::uint32_t target = 0;      // index into CausalData::targets
  std::uint32_t speedup = 0;     // virtual speedup in percent, 0..100 (0: a baseline experiment)
  std::int64_t start_ns = 0;     // since the recording's start
  std::int64_t duration_ns = 0;  // wall time the experiment lasted
  // Pause time inserted into the program during the experiment: the global delay count times the
  // delay (speedup x sampling period). The effective duration is duration_ns - delay_ns.
  std::int64_t delay_ns = 0;
  std::uint64_t samples = 0;            // sampling periods of Java threads' CPU in the experiment
  std::uint64_t target_samples = 0;     // of which the samples satisfied the target
  std::vector<std::uint64_t> progress;  // units counted at each progress point (CausalData::points order)
  std::vector<InFlight> in_flight;      // one per point likewise, zero but at latency points
  friend bool operator==(const CausalExperiment&, const CausalExperiment&) = default;
};

struct CausalData {
  std::int64_t period_ns = 0;  // sampling period, of each thread's CPU time
  std::vector<CausalTarget> targets;
  std::vector<ProgressPoint> points;
  // `aspect NAME = PATTERN` definitions the targets' summaries use, as in label files.
  std::vector<std::pair<std::string, std::string>> aspects;
  std::vector<CausalExperiment> experiments;  // in time order within each recording
  bool empty() const { return experiments.empty(); }
};

}  // namespace bn::calltree
