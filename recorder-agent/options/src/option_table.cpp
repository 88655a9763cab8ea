#include "bn/agent/option_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <string>

#include "bn/agent/option_values.h"
#include "bn/agent/options.h"

namespace bn::agent {
namespace {

// The first row is the default mode. docs/recorder.md describes each for users.
constexpr Mode kModes[] = {
    {"sample", "stacks and states of every thread at jittered intervals"},
    {"calltree", "every call of every instrumented method: exact call counts and times per calling context",
     /*duration_from_first_event=*/true},
    {"causal",
     "what speeding up a call path would gain the program: experiments of virtual speedup, beside the "
     "sampler's stacks"},
};

// What each setter returns: "" when the value is taken, else what it must be.
std::string taken(bool ok, std::string_view expected) { return ok ? std::string() : std::string(expected); }

// A duration within [lo, hi] ns into `field`.
std::string duration_in(std::int64_t& field, std::string_view value, std::int64_t lo, std::int64_t hi,
                        std::string_view expected) {
  std::int64_t ns = 0;
  const bool ok = parse_duration(value, ns) && ns >= lo && ns <= hi;
  if (ok) field = ns;
  return taken(ok, expected);
}

constexpr std::int64_t kForever = INT64_MAX;

template <std::size_t N>
std::span<const std::string_view> listed(const std::string_view (&values)[N]) {
  return values;
}

std::span<const std::string_view> mode_names() {
  static const auto names = [] {
    std::array<std::string_view, std::size(kModes)> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = kModes[i].name;
    return out;
  }();
  return names;
}

constexpr std::string_view kStacks[] = {"signal", "handshake"};
constexpr std::string_view kTrivial[] = {"skip", "wrappers", "count"};
constexpr std::string_view kClock[] = {"tick", "exact"};

// "mode=sample (what it records) or mode=...": the modes for a message or for help, each
// name after `prefix`.
std::string mode_choices(std::string_view prefix) {
  std::string out;
  for (const Mode& m : kModes) {
    if (!out.empty()) out += " or ";
    out.append(prefix).append(m.name).append(" (").append(m.description).append(")");
  }
  return out;
}

constexpr OptionSpec kOptions[] = {
    {"mode", "--mode", "", "", mode_names, false,
     [](Options& o, std::string_view v, bool) {
       o.mode = std::string(v);
       return find_mode(v) ? std::string() : mode_choices("mode=");
     },
     [] { return "what to record: " + mode_choices("") + "; the first is the default"; }},
    {"file", "", "the profile file (record: -o)", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.file = std::string(v);
       o.file_given = true;
       return taken(!v.empty(), "a file name");
     }},
    {"interval", "--interval", "mean sampling interval, jittered (default 20ms)", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.interval_ns, v, 1'000'000, 3'600'000'000'000,
                          "a duration from 1ms to 1h, e.g. interval=20ms");
     }},
    {"maxoverhead", "--max-overhead", "bound on the agent's cost, e.g. 1%", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return taken(parse_percent(v, o.max_overhead), "a percentage in (0, 100], e.g. maxoverhead=1%");
     }},
    {"delay", "--delay", "wait this long before the first sample, e.g. 30s", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.delay_ns, v, 0, kForever, "a duration, e.g. delay=30s");
     }},
    {"duration", "--duration",
     "stop recording after this long, e.g. 30s (calltree: counted from the first instrumented call, then the "
     "original classes are restored)",
     "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.duration_ns, v, 0, kForever, "a duration, e.g. duration=60s");
     }},
    {"flush", "--flush", "append to the file this often (default 1s)", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.flush_ns, v, 10'000'000, kForever, "a duration of at least 10ms, e.g. flush=1s");
     }},
    {"snapshot", "--snapshot", "also rewrite FILE.snapshot this often", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       std::int64_t ns = 0;
       const bool ok = parse_duration(v, ns) && (ns == 0 || ns >= 100'000'000);
       if (ok) o.snapshot_ns = ns;
       return taken(ok, "0 or a duration of at least 100ms, e.g. snapshot=10s");
     }},
    {"depth", "", "frames kept per stack", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       std::uint32_t d = 0;
       const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
       const bool ok = ec == std::errc() && end == v.data() + v.size() && d >= 1 && d <= 65536;
       if (ok) o.max_depth = d;
       return taken(ok, "a frame count from 1 to 65536, e.g. depth=2048");
     }},
    {"stacks", "--stacks", "how running threads' stacks are taken: signal (default, AsyncGetCallTrace) or handshake",
     "", [] { return listed(kStacks); }, false,
     [](Options& o, std::string_view v, bool) {
       const bool ok = v == "signal" || v == "handshake";
       if (ok) o.signal_stacks = v == "signal";
       return taken(ok, "stacks=signal or stacks=handshake");
     }},
    {"include", "--include",
     "instrument only classes matching these globs, ':'-separated, e.g. 'com.acme.*' ('*': every class, the "
     "JDK's too; default: the application's classes)",
     "calltree", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.include = std::string(v);
       return taken(!v.empty(), "class globs separated by ':', e.g. include=com.acme.*:org.h2.*");
     }},
    {"exclude", "--exclude", "never instrument classes matching these globs", "calltree", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.exclude = std::string(v);
       return taken(!v.empty(), "class globs separated by ':', e.g. exclude=com.acme.*:org.h2.*");
     }},
    {"trivial", "--trivial",
     "skip (default: tiny loop-free methods that call nothing get no probes), wrappers (tiny loop-free methods "
     "that call only their package's methods get none either: fewer calls, and the tree no longer shows them) "
     "or count",
     "calltree", [] { return listed(kTrivial); }, false,
     [](Options& o, std::string_view v, bool) {
       const bool ok = v == "skip" || v == "count" || v == "wrappers";
       if (ok)
         o.trivial = v == "skip"    ? Options::Trivial::kSkip
                     : v == "count" ? Options::Trivial::kCount
                                    : Options::Trivial::kWrappers;
       return taken(ok, "trivial=skip, trivial=wrappers or trivial=count");
     }},
    {"clock", "--clock",
     "tick (default: exact call counts, time divided among calling contexts at each 1 ms tick) or exact (the "
     "clock read at every entry and exit: exact times, slower)",
     "calltree", [] { return listed(kClock); }, false,
     [](Options& o, std::string_view v, bool) {
       const bool ok = v == "tick" || v == "exact";
       if (ok) o.exact_clock = v == "exact";
       return taken(ok, "clock=tick or clock=exact");
     }},
    {"methods", "--methods", "instrument only the methods of this label file (saved by the REPL's save)", "calltree",
     nullptr, /*file_path=*/true,
     [](Options& o, std::string_view v, bool) {
       o.methods_file = std::string(v);
       return taken(!v.empty(), "a label file saved by the REPL, e.g. methods=hot.labels");
     }},
    {"treememory", "--tree-memory",
     "bound on the per-thread call trees' memory, e.g. 2g (default: an eighth of physical memory); past it, "
     "calls in new calling contexts are counted under '(call tree full)'",
     "calltree", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       std::uint64_t bytes = 0;
       const bool ok = parse_size(v, bytes) && bytes >= (std::uint64_t{64} << 10);
       if (ok) o.tree_memory = bytes;
       return taken(ok, "a size of at least 64k (bytes, or with k, m, g or t), e.g. treememory=2g");
     }},
    {"target", "--target",
     "a call sequence to speed up virtually, ';' between methods, '..' a gap (repeatable; default: the hottest "
     "methods of a warm-up)",
     "causal", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.targets.emplace_back(v);
       return taken(!v.empty(), "a call sequence, e.g. target=com.acme.Parser.parse;..;java.util.HashMap.get");
     },
     nullptr, /*repeatable=*/true},
    {"targets", "--targets", "speed up each label of this label file (saved by the REPL's save)", "causal", nullptr,
     /*file_path=*/true,
     [](Options& o, std::string_view v, bool) {
       o.targets_file = std::string(v);
       return taken(!v.empty(), "a label file saved by the REPL, e.g. targets=hot.labels");
     }},
    {"progress", "--progress",
     "where progress is counted: pkg.Class.method (each completed call is one unit; repeatable) or end (the whole "
     "run)",
     "causal", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.progress.emplace_back(v);
       return taken(!v.empty(), "progress=pkg.Class.method or progress=end");
     },
     nullptr, /*repeatable=*/true},
    {"latency", "--latency",
     "a latency point BEGIN:END: the mean time from an entry of method BEGIN to a return of method END, by Little's "
     "law (pkg.Class.method each; repeatable)",
     "causal", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.latency.emplace_back(v);
       const std::size_t colon = v.find(':');
       return taken(colon != std::string_view::npos && colon > 0 && colon + 1 < v.size(),
                    "BEGIN:END, two methods, e.g. latency=com.acme.Server.receive:com.acme.Server.reply");
     },
     nullptr, /*repeatable=*/true},
    {"experiment", "--experiment", "each experiment's length (default 500ms; doubled while progress is too rare)",
     "causal", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.experiment_ns, v, 10'000'000, 600'000'000'000,
                          "a duration from 10ms to 10m, e.g. experiment=1s");
     }},
    {"period", "--period", "each thread's CPU time between samples (default 1ms)", "causal", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.causal_period_ns, v, 100'000, 1'000'000'000,
                          "a duration from 100us to 1s, e.g. period=1ms");
     }},
    {"warmup", "--warmup",
     "time before the first experiment, while the JIT compiles; without targets, the sampling that picks them (default "
     "3s)",
     "causal", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return duration_in(o.warmup_ns, v, 100'000'000, 3'600'000'000'000,
                          "a duration of at least 100ms, e.g. warmup=5s");
     }},
    {"speedups", "--speedups", "virtual speedups to try, in percent, ':'-separated (default 0:5:10:...:100)", "causal",
     nullptr, false,
     [](Options& o, std::string_view v, bool) {
       o.speedups.clear();
       bool ok = !v.empty();
       bool zero = false;
       for (std::size_t start = 0; ok && start <= v.size();) {
         const std::size_t colon = std::min(v.find(':', start), v.size());
         std::uint32_t p = 0;
         const auto [end, ec] = std::from_chars(v.data() + start, v.data() + colon, p);
         ok = ec == std::errc() && end == v.data() + colon && p <= 100;
         zero = zero || p == 0;
         o.speedups.push_back(p);
         start = colon + 1;
       }
       return taken(ok && zero,
                    "percentages from 0 to 100 separated by ':', 0 among them (the baseline), e.g. speedups=0:25:50");
     }},
    {"strict", "", "a bad option stops the JVM", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return taken(parse_bool(v, o.strict), "strict, strict=true or strict=false");
     }},
    {"quiet", "", "no summary line on stderr at exit", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return taken(parse_bool(v, o.quiet), "quiet, quiet=true or quiet=false");
     }},
    {"stop", "", "attached only: end the recording in progress", "", nullptr, false,
     [](Options& o, std::string_view v, bool) {
       return taken(parse_bool(v, o.stop), "stop, stop=true or stop=false");
     }},
};

}  // namespace

std::span<const Mode> modes() { return kModes; }

const Mode* find_mode(std::string_view name) {
  for (const Mode& m : kModes)
    if (m.name == name) return &m;
  return nullptr;
}

std::span<const OptionSpec> option_specs() { return kOptions; }

std::string help_of(const OptionSpec& spec) {
  return spec.computed_help != nullptr ? spec.computed_help() : std::string(spec.help);
}

const OptionSpec* find_option(std::string_view key) {
  for (const OptionSpec& o : kOptions)
    if (o.key == key) return &o;
  return nullptr;
}

}  // namespace bn::agent
