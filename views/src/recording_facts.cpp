#include "recording_facts.h"

#include <charconv>

#include "bn/base/error.h"
#include "thread_state.h"

namespace bn::views::detail {
namespace {

[[noreturn]] void bad_record(std::size_t tick, const calltree::SampleData& samples, const calltree::SampleRecord& r,
                             const std::string& what) {
  const std::string thread = r.thread < samples.threads.size() ? "thread '" + samples.threads[r.thread].name + "'"
                                                               : "thread " + std::to_string(r.thread);
  throw Error("invalid sample records: tick " + std::to_string(tick) + ", " + thread + ": " + what);
}

std::optional<std::uint32_t> recorded_cpus(const calltree::Metadata& metadata) {
  const auto text = metadata.find_extra("cpus");
  if (!text) return std::nullopt;
  std::uint32_t cpus = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), cpus);
  if (ec != std::errc() || end != text->data() + text->size() || cpus == 0)
    throw Error("invalid metadata: cpus '" + std::string(*text) + "' is not a positive CPU count");
  return cpus;
}

// Far beyond any recording (146 years), so sums of a few figures never overflow 64 bits.
constexpr std::uint64_t kMaxNs = std::uint64_t{1} << 62;

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return std::to_string(whole == 0 ? 0 : part * 100 / whole) + "%";
}

}  // namespace

RecordingFacts scan_recording(const calltree::CallTree& recorded, const calltree::SampleData& samples) {
  RecordingFacts facts;
  facts.cpus = recorded_cpus(recorded.metadata());
  std::vector<std::size_t> seen_in(samples.threads.size(), 0);  // tick + 1 of each thread's last record
  bool any_runnable = false;
  for (std::size_t k = 0; k < samples.ticks.size(); ++k) {
    const calltree::SampleTick& tick = samples.ticks[k];
    if (k > 0 && tick.time_ns < samples.ticks[k - 1].time_ns)
      throw Error("invalid sample records: tick " + std::to_string(k) + " goes back in time");
    if (std::uint64_t{tick.first_record} + tick.record_count > samples.records.size())
      throw Error("invalid sample records: tick " + std::to_string(k) + " names records past the end");
    for (std::uint32_t i = tick.first_record; i < tick.first_record + tick.record_count; ++i) {
      const calltree::SampleRecord& r = samples.records[i];
      if (r.thread >= samples.threads.size()) bad_record(k, samples, r, "unknown thread");
      if (r.node >= recorded.node_count()) bad_record(k, samples, r, "unknown stack node " + std::to_string(r.node));
      if (r.owner != calltree::kNoThread && r.owner >= samples.threads.size())
        bad_record(k, samples, r, "unknown monitor owner " + std::to_string(r.owner));
      if (seen_in[r.thread] == k + 1) bad_record(k, samples, r, "two records in one tick");
      seen_in[r.thread] = k + 1;
      // run_ns + wait_ns may exceed elapsed_ns: the kernel books run-queue time when the thread
      // gets a CPU, so a reading can carry queue time from before its interval (cpu_split.h).
      if (r.has_cpu && (r.run_ns > kMaxNs || r.wait_ns > kMaxNs || r.elapsed_ns > kMaxNs))
        bad_record(k, samples, r, "CPU figures beyond 2^62 ns");
      ++facts.records;
      if ((r.state & calltree::thread_state::kRunnable) != 0) {
        ++facts.runnable_state;
        if (!is_runnable(r)) ++facts.idle_runnable;
      }
      if (has_cpu_split(r)) ++facts.with_split;
      if (is_blocked_on_monitor(r)) {
        ++facts.blocked;
        if (r.owner != calltree::kNoThread) ++facts.blocked_with_owner;
      }
      if (is_runnable(r)) {
        if (any_runnable && r.nice != facts.nice) facts.one_nice = false;
        facts.nice = r.nice;
        any_runnable = true;
      }
    }
  }
  return facts;
}

ChosenModel choose_model(const std::optional<Model>& asked, const RecordingFacts& facts) {
  const std::uint32_t recorded = facts.cpus.value_or(1);
  if (asked) {
    if (asked->kind != Model::Kind::measured) return {*asked, "as set"};
    if (facts.with_split == 0)
      throw Error(
          "model measured needs CPU figures (schedstat), and this recording has none: record on Linux "
          "with the agent (threads need known OS ids); use `set model cpus N` or `paper`");
    return {{Model::Kind::measured, recorded}, "as set"};
  }
  if (facts.runnable_state > 0 && 2 * facts.with_split >= facts.runnable_state)
    return {{Model::Kind::measured, recorded},
            "the default: CPU figures for " + percent(facts.with_split, facts.runnable_state) + " of runnable records"};
  if (facts.cpus)
    return {{Model::Kind::cpus, recorded},
            "the default: recorded on " + std::to_string(recorded) + " CPUs, too few CPU figures for measured"};
  return {{Model::Kind::paper, 1}, "the default: the recording has neither CPU figures nor a CPU count"};
}

std::vector<std::string> recording_notes(const RecordingFacts& facts, const Model& model) {
  std::vector<std::string> notes;
  if (facts.one_nice)
    notes.push_back("every runnable thread had nice " + std::to_string(facts.nice) +
                    ", so :PRIO is empty (on Linux the nice value orders threads, Java priorities do not)");
  if (facts.idle_runnable > 0)
    notes.push_back(percent(facts.idle_runnable, facts.runnable_state) +
                    " of JVMTI-RUNNABLE records were idle by their CPU figures (blocked in the VM or a system call) "
                    "and count as :WAIT");
  if (facts.blocked > facts.blocked_with_owner)
    notes.push_back(percent(facts.blocked - facts.blocked_with_owner, facts.blocked) +
                    " of monitor waits have no recorded holder (:MONITOR;:UNKNOWN); an agent attached with jcmd "
                    "records none");
  if (model.kind == Model::Kind::measured) {
    if (facts.with_split < facts.runnable_state)
      notes.push_back(percent(facts.runnable_state - facts.with_split, facts.runnable_state) +
                      " of runnable records have no CPU figures (a thread's first record, or its OS id unknown): "
                      "split as by `cpus " +
                      std::to_string(model.cpus) + "`");
    if (!facts.cpus)
      notes.emplace_back(
          "the CPU count was not recorded: run-queue time is :PRIO when a higher-priority "
          "thread was runnable, as on 1 CPU");
  }
  return notes;
}

}  // namespace bn::views::detail
