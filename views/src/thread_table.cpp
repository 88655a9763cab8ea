#include "bn/views/thread_table.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "bn/base/error.h"
#include "bn/views/thread_classes.h"
#include "bn/views/view.h"
#include "common_denominator.h"
#include "measured_time.h"
#include "recording_facts.h"
#include "typed_time.h"

namespace bn::views {

ThreadTable thread_table(const calltree::CallTree& recorded, const calltree::SampleData& samples, Grouping grouping,
                         const std::optional<Model>& model) {
  if (!has_records(samples))
    throw Error(
        "thread classes need per-sample records, which only a recording made with the agent has "
        "(`bottlenecks record`)");
  const detail::RecordingFacts facts = detail::scan_recording(recorded, samples);
  const detail::ChosenModel chosen = detail::choose_model(model, facts);
  const ThreadClasses classes = group_threads(samples.threads, grouping);
  std::optional<detail::MeasuredTime> time;
  if (chosen.model.kind == Model::Kind::measured) time.emplace(samples);
  detail::TypedTime typed(samples, classes, chosen.model, time ? &*time : nullptr);

  detail::CommonDenominator common;
  typed.for_each(detail::kNoClass, [&](std::uint32_t, std::span<const detail::Part> parts) {
    for (const detail::Part& p : parts) common.add(p.weight);
  });
  ThreadTable table{grouping, chosen.model, chosen.why, common.finish("thread classes", 126, ""), {}, {}};
  table.rows.resize(classes.names.size());
  for (std::size_t c = 0; c < classes.names.size(); ++c) {
    table.rows[c].name = classes.names[c];
    table.rows[c].jvm_service = classes.jvm_service[c];
  }
  typed.for_each(detail::kNoClass, [&](std::uint32_t i, std::span<const detail::Part> parts) {
    ThreadClassRow& row = table.rows[classes.of_thread[samples.records[i].thread]];
    ++row.instances;
    for (const detail::Part& p : parts) {
      const iface::Amount n = detail::numerator(p.weight, table.denominator);
      row.time[static_cast<std::size_t>(p.type)] += n;
      row.total += n;
    }
  });
  // Lifetimes: each thread from its first record to its last.
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
  std::vector<std::int64_t> first(samples.threads.size(), kNone), last(samples.threads.size(), kNone);
  for (const calltree::SampleTick& tick : samples.ticks)
    for (std::uint32_t i = tick.first_record; i < tick.first_record + tick.record_count; ++i) {
      const std::uint32_t t = samples.records[i].thread;
      if (first[t] == kNone) first[t] = tick.time_ns;
      last[t] = tick.time_ns;
    }
  for (std::uint32_t t = 0; t < samples.threads.size(); ++t) {
    if (first[t] == kNone) continue;
    ThreadClassRow& row = table.rows[classes.of_thread[t]];
    ++row.threads;
    row.lifetime_ns += last[t] - first[t];
  }
  std::erase_if(table.rows, [](const ThreadClassRow& r) { return r.threads == 0; });
  for (ThreadClassRow& row : table.rows) row.lifetime_ns /= row.threads;
  // The JVM's own threads last: they wait nearly all the time, and a reader looks for the program.
  std::sort(table.rows.begin(), table.rows.end(), [](const ThreadClassRow& a, const ThreadClassRow& b) {
    if (a.jvm_service != b.jvm_service) return b.jvm_service;
    return a.instances != b.instances ? a.instances > b.instances : a.name < b.name;
  });
  table.notes = detail::recording_notes(facts, chosen.model);
  return table;
}

}  // namespace bn::views
