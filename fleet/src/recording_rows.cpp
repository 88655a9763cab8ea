#include "recording_rows.h"

#include <algorithm>
#include <unordered_map>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "bn/views/thread_classes.h"

namespace bn::fleet::detail {
namespace {

// Whether the per-sample records account for metric 0 exactly, one sample per record at its
// node: then they can replace the tree's rows with rows by minute and thread class.
bool records_are_the_samples(const calltree::CallTree& tree, const calltree::SampleData& samples) {
  if (samples.records.empty() || tree.metadata().unit != "samples") return false;
  std::vector<calltree::Cost> counted(tree.node_count(), 0);
  for (const calltree::SampleRecord& r : samples.records) {
    if (r.node >= tree.node_count() || r.thread >= samples.threads.size()) return false;
    ++counted[r.node];
  }
  for (calltree::NodeId v = 0; v < tree.node_count(); ++v)
    if (counted[v] != tree.cost(v)) return false;
  return true;
}

struct RecordKey {
  std::uint32_t bucket, thread_class;
  calltree::NodeId node;
  bool operator==(const RecordKey&) const = default;
};
struct RecordKeyHash {
  std::size_t operator()(const RecordKey& k) const { return XXH3_64bits(&k, sizeof k); }
};
struct RecordSums {
  calltree::Cost samples = 0, cpu_ns = 0;
};

// The records' rows: samples and CPU nanoseconds by minute, thread class and stack. A runnable
// record's CPU figures measured its thread's time on a CPU since its previous reading, which the
// thread spent where this record finds it (the measured model's :RUN, docs/views.md). Adds
// cpu-time to the metrics if some record had CPU figures.
void add_record_rows(const Recording& r, const StackTrie& trie, RecordingRows& out) {
  const views::ThreadClasses classes = views::group_threads(r.samples.threads, views::Grouping::by_kind);
  std::unordered_map<RecordKey, RecordSums, RecordKeyHash> sums;
  for (const calltree::SampleTick& tick : r.samples.ticks) {
    const std::uint32_t bucket = bucket_of(r.start + tick.time_ns / 1'000'000'000);
    for (std::uint32_t i = tick.first_record; i < tick.first_record + tick.record_count; ++i) {
      const calltree::SampleRecord& rec = r.samples.records[i];
      RecordSums& s = sums[{bucket, classes.of_thread[rec.thread], rec.node}];
      ++s.samples;
      if (rec.has_cpu && (rec.state & calltree::thread_state::kRunnable) != 0)
        s.cpu_ns += static_cast<calltree::Cost>(rec.run_ns);
    }
  }
  const bool any_cpu = std::any_of(sums.begin(), sums.end(), [](const auto& s) { return s.second.cpu_ns != 0; });
  // Metric 0 of the tree is already out.metrics[0]; cpu-time goes in front of it.
  std::uint32_t samples = 0, cpu = 0;
  if (any_cpu) {
    out.metrics.insert(out.metrics.begin(), Metric{std::string(kCpuTime), "ns"});
    samples = 1;
  }
  for (const auto& [key, s] : sums) {
    const std::string& cls = classes.names[key.thread_class];
    out.rows.push_back({key.bucket, cls, trie.id[key.node], samples, s.samples});
    if (s.cpu_ns != 0) out.rows.push_back({key.bucket, cls, trie.id[key.node], cpu, s.cpu_ns});
  }
}

struct RowKey {
  std::uint32_t bucket;
  std::string_view thread_class;
  std::uint64_t stack;
  std::string_view metric;
  bool operator==(const RowKey&) const = default;
};
struct RowKeyHash {
  std::size_t operator()(const RowKey& k) const {
    const std::uint64_t parts[4] = {k.bucket, k.stack, XXH3_64bits(k.thread_class.data(), k.thread_class.size()),
                                    XXH3_64bits(k.metric.data(), k.metric.size())};
    return XXH3_64bits(parts, sizeof parts);
  }
};

}  // namespace

std::uint32_t bucket_of(std::int64_t unix_seconds) {
  const std::int64_t s = std::max<std::int64_t>(0, unix_seconds);
  return static_cast<std::uint32_t>(s - s % kBucketSeconds);
}

RecordingRows recording_rows(const Recording& r, const StackTrie& trie) {
  RecordingRows out;
  for (std::size_t k = 0; k < r.tree.metric_count(); ++k) {
    const calltree::MetricSpec spec = r.tree.metric_spec(k);
    out.metrics.push_back({spec.name, spec.unit});
  }
  const bool by_record = records_are_the_samples(r.tree, r.samples);
  if (by_record) add_record_rows(r, trie, out);
  const std::uint32_t shift = static_cast<std::uint32_t>(out.metrics.size() - r.tree.metric_count());
  const std::uint32_t bucket = bucket_of(r.at);
  for (std::size_t k = by_record ? 1 : 0; k < r.tree.metric_count(); ++k)
    for (calltree::NodeId v = 1; v < r.tree.node_count(); ++v)
      if (const calltree::Cost c = r.tree.metric_cost(k, v); c != 0)
        out.rows.push_back({bucket, "", trie.id[v], static_cast<std::uint32_t>(k) + shift, c});
  return out;
}

void subtract_rows(RecordingRows& now, const RecordingRows& before) {
  // The keys below view the metrics' names: no metric added further down may move them.
  now.metrics.reserve(now.metrics.size() + before.metrics.size());
  std::unordered_map<RowKey, std::size_t, RowKeyHash> at;
  at.reserve(now.rows.size());
  for (std::size_t i = 0; i < now.rows.size(); ++i) {
    const SampleRow& r = now.rows[i];
    at.emplace(RowKey{r.bucket, r.thread_class, r.stack, now.metrics[r.metric].name}, i);
  }
  const auto metric_in_now = [&](const Metric& m) {
    const auto found =
        std::find_if(now.metrics.begin(), now.metrics.end(), [&](const Metric& n) { return n.name == m.name; });
    if (found != now.metrics.end()) return static_cast<std::uint32_t>(found - now.metrics.begin());
    now.metrics.push_back(m);
    return static_cast<std::uint32_t>(now.metrics.size() - 1);
  };
  std::vector<SampleRow> vanished;
  for (const SampleRow& r : before.rows) {
    const Metric& m = before.metrics[r.metric];
    if (const auto found = at.find(RowKey{r.bucket, r.thread_class, r.stack, m.name}); found != at.end()) {
      now.rows[found->second].value -= r.value;
    } else {
      SampleRow gone = r;
      gone.metric = metric_in_now(m);
      gone.value = -r.value;
      vanished.push_back(std::move(gone));
    }
  }
  std::erase_if(now.rows, [](const SampleRow& r) { return r.value == 0; });
  now.rows.insert(now.rows.end(), std::make_move_iterator(vanished.begin()), std::make_move_iterator(vanished.end()));
}

}  // namespace bn::fleet::detail
