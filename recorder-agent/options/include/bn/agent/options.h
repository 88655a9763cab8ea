#pragma once
// Agent options, `-agentpath:libbottlenecks-agent.so=key=value,key=value` (docs/recorder.md
// lists every option with its default; option_table.h has one row per option). Parsing returns
// an error value instead of throwing: it runs inside Agent_OnLoad, where nothing may throw.
// `bottlenecks record` parses the string it builds with the same function before it starts a
// JVM, so a bad value is refused in one line before anything runs.

#include <cstdint>
#include <string>
#include <vector>

#include "bn/agent/status.h"

namespace bn::agent {

struct Options {
  std::string mode;  // a row of modes() (option_table.h); parse_options defaults it to the first
  std::string file = "bottlenecks.bnp";
  bool file_given = false;                // file= was among the options (stop: which recording it means)
  std::int64_t interval_ns = 20'000'000;  // mean of the jittered sampling interval
  double max_overhead = 0;                // fraction of one CPU; 0 = no bound
  std::int64_t delay_ns = 0;              // wait before the first sample
  std::int64_t duration_ns = 0;           // stop sampling after this long; 0 = until VM exit
  std::int64_t flush_ns = 1'000'000'000;  // stream data to the file this often
  std::int64_t snapshot_ns = 0;           // also rewrite FILE.snapshot this often; 0 = never
  std::uint32_t max_depth = 2048;         // deeper stacks keep their innermost frames
  bool signal_stacks = true;              // stacks=signal: running threads walk their own stack
  bool strict = false;                    // bad options stop the JVM instead of running unprofiled
  bool quiet = false;                     // no summary line on stderr at exit
  bool stop = false;                      // attach only: end the recording in progress now
  // mode=calltree (docs/recorder.md): which classes and methods get probes.
  std::string include;  // class globs separated by ':'; empty = every class
  std::string exclude;  // class globs separated by ':'
  // trivial=: which tiny methods get no probes (docs/recorder.md, "Trivial methods").
  enum class Trivial { kCount, kSkip, kWrappers };
  Trivial trivial = Trivial::kSkip;
  bool exact_clock = false;       // clock=exact (true: the clock read at every event) or clock=tick
  std::string methods_file;       // methods=: a REPL label file; only its methods are instrumented
  std::uint64_t tree_memory = 0;  // treememory=: bytes the per-thread trees may commit; 0 = the default
  // mode=causal (docs/causal.md): what the experiments speed up, where progress is counted.
  std::vector<std::string> targets;           // target=: call sequences, `;` between elements (repeatable)
  std::string targets_file;                   // targets=: a REPL label file; each label one target
  std::vector<std::string> progress;          // progress=: pkg.Class.method or end (repeatable)
  std::vector<std::string> latency;           // latency=: BEGIN:END, two pkg.Class.method (repeatable)
  std::int64_t experiment_ns = 500'000'000;   // experiment=: each experiment's first length
  std::int64_t causal_period_ns = 1'000'000;  // period=: each thread's CPU time between samples
  std::int64_t warmup_ns = 3'000'000'000;     // warmup=: sampling to find default targets
  std::vector<std::uint32_t> speedups;        // speedups=: percentages to try; empty: 0, 5, ..., 100
};

struct ParsedOptions {
  Options options;
  Status status;  // ok when every option was understood; else names the first bad one
};

// `text` may be null (no options). `mode=` must name one of modes(); the first is the default.
// The `strict` flag is honoured even when another option is bad, so the caller can decide
// whether to stop the JVM.
ParsedOptions parse_options(const char* text);

}  // namespace bn::agent
