#include "typed_time.h"

#include <algorithm>
#include <numeric>

#include "thread_state.h"

namespace bn::views::detail {
namespace {

// The measured model counts whole nanoseconds: a record's parts, exact fractions summing to its
// whole `total`, become integers by the largest-remainder method (ties to the earlier part), so
// they still sum to `total` exactly and each is within 1 ns of its exact share. A view of
// nanoseconds then needs no common denominator, whatever the thread counts.
void apportion(std::vector<Part>& parts, std::uint64_t total) {
  if (std::all_of(parts.begin(), parts.end(), [](const Part& p) { return p.weight.den == 1; })) return;
  std::uint64_t floors = 0;
  std::vector<std::size_t> order(parts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (const Part& p : parts) floors += static_cast<std::uint64_t>(p.weight.num / p.weight.den);
  // remainder(a) / den(a) > remainder(b) / den(b), compared exactly.
  auto larger = [&](std::size_t a, std::size_t b) {
    const Weight& x = parts[a].weight;
    const Weight& y = parts[b].weight;
    return (x.num % x.den) * y.den > (y.num % y.den) * x.den;
  };
  std::stable_sort(order.begin(), order.end(), larger);
  for (std::size_t k = 0; k < order.size(); ++k) {
    Weight& w = parts[order[k]].weight;
    w = whole(w.num / w.den + (k < total - floors ? 1 : 0));
  }
  std::erase_if(parts, [](const Part& p) { return p.weight.zero(); });
}

}  // namespace

TypedTime::TypedTime(const calltree::SampleData& samples, const ThreadClasses& classes, Model model,
                     const MeasuredTime* measured, bool refine)
    : samples_(samples),
      classes_(classes),
      model_(model),
      measured_(measured),
      refine_(refine),
      competition_(model.cpus),
      record_of_thread_(samples.threads.size(), kNoRecord),
      tick_of_thread_(samples.threads.size(), 0) {}

void TypedTime::start_tick(std::size_t k) {
  const calltree::SampleTick& tick = samples_.ticks[k];
  tick_ = k + 1;
  first_ = tick.first_record;
  const std::span<const calltree::SampleRecord> records(samples_.records.data() + tick.first_record, tick.record_count);
  runnable_.resize(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    runnable_[i] = is_runnable(records[i]) ? 1 : 0;
    record_of_thread_[records[i].thread] = static_cast<std::uint32_t>(first_ + i);
    tick_of_thread_[records[i].thread] = tick_;
  }
  competition_.reset(records, runnable_, classes_.of_thread);
  if (cursor_) cursor_->tick(k, weights_);
}

void TypedTime::split(std::uint32_t i, std::vector<Part>& parts) {
  parts.clear();
  const calltree::SampleRecord& r = samples_.records[i];
  const bool runnable = runnable_[i - first_];
  const bool measured = measured_ != nullptr;
  const std::uint64_t weight = measured ? weights_[i - first_] : 1;
  const Weight total = whole(weight);
  if (measured && has_cpu_split(r)) {
    if (r.run_ns > 0) parts.push_back({TimeType::run, whole(r.run_ns)});
    if (r.wait_ns > 0) queued(r, runnable, whole(r.wait_ns), parts);
    const std::uint64_t rest = weight - r.run_ns - r.wait_ns;
    if (rest > 0) parts.push_back({TimeType::wait, whole(rest)});
  } else if (total.zero()) {
    // Nothing observed before the first tick: the record stands for no time.
  } else if (runnable) {
    competing(r, total, parts);
  } else if (is_blocked_on_monitor(r)) {
    monitor(r, total, parts);
  } else {
    parts.push_back({TimeType::wait, total});
  }
  if (measured) apportion(parts, weight);
}

void TypedTime::competing(const calltree::SampleRecord& r, Weight total, std::vector<Part>& parts) {
  if (competition_.preempted(r.nice)) {
    queued(r, true, total, parts);
    return;
  }
  const Weight share = competition_.share(r.nice);
  parts.push_back({TimeType::run, times(total, share)});
  if (share.num != share.den) queued(r, true, times(total, one_minus(share)), parts);
}

void TypedTime::queued(const calltree::SampleRecord& r, bool runnable, Weight total, std::vector<Part>& parts) {
  if (!refine_) {
    parts.push_back({competition_.preempted(r.nice) ? TimeType::prio : TimeType::load, total});
    return;
  }
  if (competition_.preempted(r.nice)) {
    for (const Credit& c : competition_.prio_credits(r.nice))
      parts.push_back({TimeType::prio, times(total, c.fraction), c.thread_class});
    return;
  }
  competition_.load_credits(r.nice, classes_.of_thread[r.thread], runnable, credits_);
  if (credits_.empty()) {
    parts.push_back({TimeType::load, total, kUnknownClass});
    return;
  }
  for (const Credit& c : credits_) parts.push_back({TimeType::load, times(total, c.fraction), c.thread_class});
}

void TypedTime::monitor(const calltree::SampleRecord& r, Weight total, std::vector<Part>& parts) const {
  if (r.owner == calltree::kNoThread) {
    parts.push_back({TimeType::monitor, total, kUnknownClass});
    return;
  }
  const bool present = tick_of_thread_[r.owner] == tick_;
  parts.push_back(
      {TimeType::monitor, total, classes_.of_thread[r.owner], present ? record_of_thread_[r.owner] : kNoRecord});
}

}  // namespace bn::views::detail
