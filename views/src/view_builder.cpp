// build_view: from a recording's per-sample records to the weighted call tree of one view, in
// two passes over the same measurements (typed_time.h): the first finds the common denominator,
// the second writes integer numerators over it.
#include <optional>
#include <set>

#include "bn/base/error.h"
#include "bn/iface/units.h"
#include "bn/views/view.h"
#include "common_denominator.h"
#include "measured_time.h"
#include "recording_facts.h"
#include "thread_state.h"
#include "typed_time.h"
#include "view_tree.h"

namespace bn::views {
namespace {

using detail::Part;

// Which measurements a view keeps, and where: the Thread View all of them below typed time;
// the Server View and the tree of running time only :RUN (Table 1 gives every other Server
// View entry 0); the tree of runnable threads one whole sample per runnable instance.
struct Keep {
  bool all_types = false;
  bool typed = true;
  bool one_per_runnable = false;
};

Keep keep_of(const ViewSpec& spec) {
  if (spec.kind == ViewKind::thread) return {true, true, false};
  if (spec.kind == ViewKind::server) return {false, true, false};
  if (spec.states == States::running) return {false, false, false};
  return {false, false, true};
}

// Calls f(record index, part) for every measurement the view keeps. The tree of runnable threads
// needs no typed time (`typed` is null): one whole sample per runnable instance.
template <class F>
void for_each_kept(const calltree::SampleData& samples, detail::TypedTime* typed, std::uint32_t only, const Keep& keep,
                   F&& f) {
  if (!typed) {
    for (std::uint32_t i = 0; i < samples.records.size(); ++i)
      if (detail::is_runnable(samples.records[i])) f(i, Part{TimeType::run, detail::whole(1)});
    return;
  }
  typed->for_each(only, [&](std::uint32_t i, std::span<const Part> parts) {
    for (const Part& p : parts)
      if (keep.all_types || p.type == TimeType::run) f(i, p);
  });
}

// The class a thread view names: exactly, or by a prefix only one class has (a class named by
// a thread's name may contain blanks, which the REPL's `view thread CLASS` cannot type).
std::uint32_t thread_class_of(const ViewSpec& spec, const ThreadClasses& classes) {
  if (spec.kind != ViewKind::thread) return detail::kNoClass;
  if (const auto c = classes.find(spec.thread_class)) return *c;
  std::vector<std::uint32_t> prefixed;
  for (std::uint32_t c = 0; c < classes.names.size(); ++c)
    if (classes.names[c].starts_with(spec.thread_class)) prefixed.push_back(c);
  if (prefixed.size() == 1 && !spec.thread_class.empty()) return prefixed.front();
  const bool ambiguous = prefixed.size() > 1 && !spec.thread_class.empty();
  std::string listed;
  const auto& names = classes.names;
  const std::size_t count = ambiguous ? prefixed.size() : names.size();
  for (std::size_t i = 0; i < count && i < 12; ++i) listed += (i ? ", " : "") + names[ambiguous ? prefixed[i] : i];
  if (count > 12) listed += ", ... (`threads` lists them all)";
  throw Error((ambiguous ? "thread class '" + spec.thread_class + "' is ambiguous when threads are grouped by "
                         : "no thread class '" + spec.thread_class + "' when threads are grouped by ") +
              std::string(to_string(spec.grouping)) + "; " + (ambiguous ? "it begins " : "the classes are ") + listed);
}

// What one unit of the view's costs is, and the normalisation that makes it so (seed 000
// sec. 5.2: the Server View divides by the number of samples, a Thread View by the number of
// instances of its class).
struct Scale {
  iface::Amount normalisation = 1;
  std::string metric, unit, meaning;
};

// The measured nanoseconds of the records of class `only` (all records for kNoClass).
iface::Amount measured_total(const calltree::SampleData& samples, const ThreadClasses& classes, std::uint32_t only,
                             const detail::MeasuredTime& time) {
  iface::Amount total = 0;
  detail::MeasuredTime::Cursor cursor(time);
  std::vector<std::uint64_t> weights;
  for (std::size_t k = 0; k < samples.ticks.size(); ++k) {
    cursor.tick(k, weights);
    for (std::uint32_t j = 0; j < weights.size(); ++j)
      if (only == detail::kNoClass ||
          classes.of_thread[samples.records[samples.ticks[k].first_record + j].thread] == only)
        total += weights[j];
  }
  return total;
}

Scale thread_scale(const calltree::SampleData& samples, const ThreadClasses& classes, std::uint32_t only,
                   const detail::MeasuredTime* time, bool amounts) {
  const bool measured = time != nullptr;
  iface::Amount total = measured ? measured_total(samples, classes, only, *time) : 0;
  std::set<std::uint32_t> threads;
  for (const calltree::SampleRecord& r : samples.records) {
    if (classes.of_thread[r.thread] != only) continue;
    if (!measured) ++total;
    threads.insert(r.thread);
  }
  const std::string name = classes.names[only];
  if (threads.empty()) throw Error("view thread " + name + ": the class has no sampled instances");
  if (total == 0)
    throw Error("view thread " + name + " under model measured: its records all lie at the first tick, before " +
                "which nothing was measured; use `set model cpus N` or `paper`");
  const std::string of =
      "all the time of its " + std::to_string(threads.size()) + " thread(s), " +
      (measured ? iface::duration_text(total, 1) + " measured" : iface::to_string(total) + " instances");
  if (amounts)
    return {1, "thread-time", measured ? "ns" : "samples",
            of + "; in thread-" + (measured ? "nanoseconds" : "samples") +
                ", not divided by its instances (an amount of time)"};
  return {total, "thread-time", "lifetime", of + "; 1 = the lifetime of an average instance"};
}

Scale scale_of(const ViewSpec& spec, const calltree::SampleData& samples, const ThreadClasses& classes,
               std::uint32_t only, const detail::MeasuredTime* time) {
  const bool measured = time != nullptr;
  switch (spec.kind) {
    case ViewKind::thread:
      return thread_scale(samples, classes, only, time, spec.amounts);
    case ViewKind::server: {
      const iface::Amount span =
          measured ? samples.ticks.back().time_ns - samples.ticks.front().time_ns : iface::Amount(samples.ticks.size());
      if (span <= 0) throw Error("view server under model measured needs two ticks or more; this recording has one");
      const std::string over =
          measured ? iface::duration_text(span, 1) + " measured" : iface::to_string(span) + " samples";
      if (spec.amounts)
        return {1, "cpu-time", measured ? "ns" : "samples",
                "CPU time of all threads over " + over + ", in " + (measured ? "nanoseconds" : "samples") +
                    ", not divided by the duration (an amount of time)"};
      return {span, "cpu", "CPUs", "CPU time of all threads; 1 = one CPU busy all the time (" + over + ")"};
    }
    case ViewKind::tree:
      break;
  }
  if (spec.states == States::runnable)
    // "samples" as a sampling profiler's (JFR's execution samples), so the two compare.
    return {1, "samples", "samples", "one sample per instance of a runnable thread"};
  // The default view of a recording (docs/views.md): what async-profiler and JFR show first.
  if (measured) return {1, "cpu-time", "ns", "running threads only: the nanoseconds each stack spent on a CPU"};
  return {1, "running", "samples", "running threads only: each runnable thread's share of a CPU, in samples"};
}

// What to do when exact costs do not fit: the measured model counts whole nanoseconds (its only
// limit is 2^63 ns, 292 years of thread time).
std::string model_hint(const Model& model) {
  return model.kind == Model::Kind::measured ? "" : "`set model measured` counts whole nanoseconds";
}

}  // namespace

bool has_records(const calltree::SampleData& samples) { return !samples.ticks.empty(); }

View build_view(const calltree::CallTree& recorded, const calltree::SampleData& samples, const ViewSpec& spec) {
  if (!has_records(samples))
    throw Error("view " + describe(spec) +
                " needs per-sample records, which only a recording made with the agent has (`bottlenecks record`)");
  if (spec.kind == ViewKind::tree && spec.states == States::all)
    throw Error("the tree view of all states is the recorded tree itself");
  const detail::RecordingFacts facts = detail::scan_recording(recorded, samples);
  const detail::ChosenModel chosen = detail::choose_model(spec.model, facts);
  const Model& model = chosen.model;
  const ThreadClasses classes = group_threads(samples.threads, spec.grouping);
  const std::uint32_t only = thread_class_of(spec, classes);
  const Keep keep = keep_of(spec);
  const bool measured = model.kind == Model::Kind::measured && !keep.one_per_runnable;
  std::optional<detail::MeasuredTime> time;
  if (measured) time.emplace(samples);
  const detail::MeasuredTime* measured_time = time ? &*time : nullptr;
  const Scale scale = scale_of(spec, samples, classes, only, measured_time);
  // Credits matter only to views that keep :LOAD and :PRIO, except under measured, where they
  // take part in rounding a record's parts to whole nanoseconds (typed_time.cpp), :RUN's too.
  std::optional<detail::TypedTime> typed;
  if (!keep.one_per_runnable) typed.emplace(samples, classes, model, measured_time, keep.all_types || measured);

  ViewSpec resolved = spec;
  resolved.model = model;
  if (only != detail::kNoClass) resolved.thread_class = classes.names[only];
  const std::string what = "view " + describe(resolved) + " under model " + to_string(model);
  detail::CommonDenominator common;
  if (measured) {
    // Whole nanoseconds (typed_time.h): D is 1 and the kept time is at most its records' weights.
    common.add(detail::whole(static_cast<detail::U128>(spec.kind == ViewKind::thread && !spec.amounts
                                                           ? scale.normalisation
                                                           : measured_total(samples, classes, only, *time))));
  } else {
    for_each_kept(samples, typed ? &*typed : nullptr, only, keep,
                  [&](std::uint32_t, const Part& p) { common.add(p.weight); });
  }
  const iface::Amount d = common.finish(what, 63, model_hint(model));

  detail::ViewTree tree(recorded, samples, classes);
  for_each_kept(samples, typed ? &*typed : nullptr, only, keep, [&](std::uint32_t i, const Part& p) {
    tree.add(tree.measurement(samples.records[i], p, keep.typed),
             static_cast<calltree::Cost>(detail::numerator(p.weight, d)));
  });
  calltree::Metadata metadata = recorded.metadata();
  metadata.mode = "view";
  metadata.metric = scale.metric;
  metadata.unit = scale.unit;
  metadata.set_extra("view", describe(resolved));
  metadata.set_extra("model", to_string(model));
  View view{resolved, std::move(tree).build(std::move(metadata)), d * scale.normalisation, measured ? 0 : d, {}};
  const std::string grouped =
      spec.kind == ViewKind::thread ? " (threads grouped by " + std::string(to_string(spec.grouping)) + ")" : "";
  if (spec.kind == ViewKind::tree && spec.states == States::running)
    view.header.push_back("CPU: " + scale.meaning);
  else
    view.header.push_back("view: " + describe(view.spec) + grouped + ": " + scale.meaning);
  if (!keep.one_per_runnable) view.header.push_back("model: " + to_string(model) + " (" + chosen.why + ")");
  for (std::string& note : detail::recording_notes(facts, model)) view.header.push_back("note: " + note);
  return view;
}

}  // namespace bn::views
