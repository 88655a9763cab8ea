#include "bn/fleet/slice.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

#include "bn/calltree/tree_builder.h"
#include "bn/fleet/push.h"
#include "bn/fleet/schema.h"
#include "row_binary.h"
#include "slice_overview.h"
#include "slice_sql.h"
#include "stack_trie.h"

namespace bn::fleet {
namespace {

using detail::RowReader;

struct TrieNode {
  std::uint64_t parent, frame;
};

struct Sum {
  std::uint64_t stack;
  std::size_t metric;
  std::int64_t value;
};

std::vector<std::string> tsv_fields(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    out.emplace_back(line.substr(start, tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

// For an empty slice: what the store does have, so that a typo shows.
std::string store_contents(const ClickHouse& server, const Tables& tables) {
  const std::string answer =
      server.query("SELECT service, version, count(), toString(min(time)), toString(max(time)) FROM " +
                   tables.recordings + " GROUP BY service, version ORDER BY service, version LIMIT 6 FORMAT TSV");
  if (answer.empty()) return "the store is empty (push recordings with `bottlenecks push`)";
  std::string out = "the store has";
  std::size_t start = 0, shown = 0;
  while (start < answer.size()) {
    const std::size_t nl = answer.find('\n', start);
    const std::vector<std::string> f = tsv_fields(std::string_view(answer).substr(start, nl - start));
    start = nl == std::string::npos ? answer.size() : nl + 1;
    if (f.size() != 5) continue;
    if (++shown > 5) {
      out += ", ...";
      break;
    }
    out += (shown > 1 ? "; " : ": ") + std::string("service=") + f[0] + " version=" + f[1] + " (" + f[2] +
           " recordings, " + f[3] + " to " + f[4] + ")";
  }
  return out;
}

struct SliceMetrics {
  std::vector<calltree::MetricSpec> specs;                 // cpu-time first when any recording has it
  std::unordered_map<std::uint64_t, std::size_t> by_hash;  // cityHash64 of the name -> index
};

// The slice's metrics: cpu-time first when any recording has it, then in the order the
// recordings list them. The sums name a metric by its name's hash: a GROUP BY on numbers only
// takes a fraction of the server's memory that one with a string key does.
SliceMetrics metrics_of(const ClickHouse& server, const Tables& tables, const detail::SliceSql& sql) {
  // The recordings of the slice's labels, whatever their time: a metric none of the slice's
  // samples has is dropped once the sums are in (read_slice).
  const std::string answer =
      server.query("SELECT DISTINCT metrics, units, arrayMap(m -> cityHash64(m), metrics) FROM " + tables.recordings +
                   " WHERE " + sql.recordings + " FORMAT RowBinary");
  std::vector<std::pair<calltree::MetricSpec, std::uint64_t>> found;
  RowReader in(answer, server.url().server() + ": metrics");
  while (!in.done()) {
    std::vector<std::string> names, units;
    std::vector<std::uint64_t> hashes;
    for (std::uint64_t n = in.length(), i = 0; i < n; ++i) names.emplace_back(in.string());
    for (std::uint64_t n = in.length(), i = 0; i < n; ++i) units.emplace_back(in.string());
    for (std::uint64_t n = in.length(), i = 0; i < n; ++i) hashes.push_back(in.u64());
    if (units.size() != names.size() || hashes.size() != names.size())
      throw Error(server.url().server() + ": a recording lists " + std::to_string(names.size()) + " metrics and " +
                  std::to_string(units.size()) + " units");
    for (std::size_t i = 0; i < names.size(); ++i)
      if (std::none_of(found.begin(), found.end(), [&](const auto& m) { return m.first.name == names[i]; }))
        found.push_back({{names[i], units[i]}, hashes[i]});
  }
  const auto cpu = std::find_if(found.begin(), found.end(), [](const auto& m) { return m.first.name == kCpuTime; });
  if (cpu != found.end()) std::rotate(found.begin(), cpu, cpu + 1);
  SliceMetrics out;
  for (auto& [spec, hash] : found) {
    out.by_hash.emplace(hash, out.specs.size());
    out.specs.push_back(std::move(spec));
  }
  return out;
}

// Drops the metrics no sum has (listed by a recording of the slice's labels outside its time
// range), renumbering the sums' metrics.
void keep_metrics_summed(SliceMetrics& metrics, std::map<std::string, std::vector<Sum>, std::less<>>& runs) {
  std::vector<bool> summed(metrics.specs.size(), false);
  for (const auto& [name, sums] : runs)
    for (const Sum& s : sums) summed[s.metric] = true;
  std::vector<std::size_t> renumbered(metrics.specs.size(), 0);
  std::vector<calltree::MetricSpec> kept;
  for (std::size_t k = 0; k < metrics.specs.size(); ++k)
    if (summed[k]) {
      renumbered[k] = kept.size();
      kept.push_back(std::move(metrics.specs[k]));
    }
  metrics.specs = std::move(kept);
  metrics.by_hash.clear();
  for (auto& [name, sums] : runs)
    for (Sum& s : sums) s.metric = renumbered[s.metric];
}

// The sums of a slice split by host have a group per host and stack: 15M at 1,000 hosts of 15k
// stacks, more than a server's memory for a query may hold. Past half of that limit (ClickHouse's
// advice for this setting) the GROUP BY goes on on disk.
std::string spill_setting(const ClickHouse& server) {
  const std::string limit =
      server.query("SELECT value FROM system.settings WHERE name = 'max_memory_usage' FORMAT TSV");
  std::uint64_t bytes = 0;
  std::from_chars(limit.data(), limit.data() + limit.size(), bytes);
  return bytes == 0 ? std::string() : "&max_bytes_before_external_group_by=" + std::to_string(bytes / 2);
}

// The key of a run in the sums (a number, for the same reason as the metrics' hashes), and how
// a key becomes the run's name.
std::string run_key(RunsBy runs_by) {
  switch (runs_by) {
    case RunsBy::host:
      return "cityHash64(host)";
    case RunsBy::day:
      return "toUInt64(day)";
    case RunsBy::none:
      break;
  }
  return "toUInt64(0)";
}

std::unordered_map<std::uint64_t, std::string> run_names(const ClickHouse& server, const Tables& tables,
                                                         const detail::SliceSql& sql, RunsBy runs_by) {
  std::unordered_map<std::uint64_t, std::string> names;
  if (runs_by != RunsBy::host) return names;
  const std::string answer = server.query("SELECT DISTINCT cityHash64(host), host FROM " + tables.recordings +
                                          " WHERE " + sql.recordings + " FORMAT RowBinary");
  RowReader in(answer, server.url().server() + ": hosts");
  while (!in.done()) {
    const std::uint64_t key = in.u64();
    names[key] = std::string(in.string());
  }
  return names;
}

std::string run_name(RunsBy runs_by, std::uint64_t key, const std::unordered_map<std::uint64_t, std::string>& hosts,
                     const std::string& where) {
  switch (runs_by) {
    case RunsBy::host: {
      const auto host = hosts.find(key);
      if (host == hosts.end()) throw Error(where + ": samples of a host that no recording of the slice names");
      return " host=" + host->second;
    }
    case RunsBy::day:
      return " day=" + time_text(static_cast<std::int64_t>(key) * 86400).substr(0, 10);
    case RunsBy::none:
      break;
  }
  return "";
}

// Every trie node and frame name of the days and services the slice touches.
std::unordered_map<std::uint64_t, TrieNode> trie_of(const ClickHouse& server, const Tables& tables,
                                                    const detail::Overview& overview) {
  const std::string answer = server.query("SELECT id, any(parent), any(frame) FROM " + tables.stacks + " WHERE " +
                                          overview.partitions_sql() + " GROUP BY id FORMAT RowBinary");
  std::unordered_map<std::uint64_t, TrieNode> trie;
  RowReader in(answer, server.url().server() + ": stacks");
  while (!in.done()) {
    const std::uint64_t id = in.u64();
    const std::uint64_t parent = in.u64();
    trie[id] = {parent, in.u64()};
  }
  return trie;
}

std::unordered_map<std::uint64_t, std::string> frames_of(const ClickHouse& server, const Tables& tables,
                                                         const detail::Overview& overview) {
  const std::string answer = server.query("SELECT id, any(name) FROM " + tables.frames + " WHERE " +
                                          overview.partitions_sql() + " GROUP BY id FORMAT RowBinary");
  std::unordered_map<std::uint64_t, std::string> frames;
  RowReader in(answer, server.url().server() + ": frames");
  while (!in.done()) {
    const std::uint64_t id = in.u64();
    frames[id] = std::string(in.string());
  }
  return frames;
}

// Builds one run's tree from its sums, creating each stack's nodes from the trie.
class RunTree {
 public:
  RunTree(const std::unordered_map<std::uint64_t, TrieNode>& trie,
          const std::unordered_map<std::uint64_t, std::string>& frames,
          const std::vector<calltree::MetricSpec>& metrics, std::string where)
      : trie_(trie), frames_(frames), where_(std::move(where)) {
    builder_.declare_extra_metrics({metrics.begin() + 1, metrics.end()});
  }

  void add(const Sum& s) { builder_.add_metric_cost(s.metric, node_of(s.stack), s.value); }

  calltree::CallTree build(calltree::Metadata metadata) && { return std::move(builder_).build(std::move(metadata)); }

 private:
  calltree::NodeId node_of(std::uint64_t stack) {
    // The stack's nodes not made yet, innermost first: a chain as deep as the recursion it
    // records, so no recursive call per frame.
    std::vector<std::uint64_t> missing;
    calltree::NodeId above = calltree::kRootNode;
    for (std::uint64_t id = stack; id != detail::kRootStack;) {
      if (const auto made = nodes_.find(id); made != nodes_.end()) {
        above = made->second;
        break;
      }
      missing.push_back(id);
      if (missing.size() > trie_.size())
        throw Error(where_ + ": the stacks table has a cycle at " + std::to_string(id));
      const auto node = trie_.find(id);
      if (node == trie_.end())
        throw Error(where_ + ": stack " + std::to_string(id) +
                    " is missing from the stacks table (one shard read without ?cluster=, or a day dropped from one "
                    "table only?)");
      id = node->second.parent;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      above = builder_.child(above, method_of(trie_.at(*it).frame));
      nodes_.emplace(*it, above);
    }
    return above;
  }

  calltree::MethodId method_of(std::uint64_t frame) {
    if (const auto known = methods_.find(frame); known != methods_.end()) return known->second;
    const auto name = frames_.find(frame);
    if (name == frames_.end())
      throw Error(where_ + ": frame " + std::to_string(frame) + " is missing from the frames table");
    return methods_.emplace(frame, builder_.intern(name->second)).first->second;
  }

  const std::unordered_map<std::uint64_t, TrieNode>& trie_;
  const std::unordered_map<std::uint64_t, std::string>& frames_;
  std::string where_;
  calltree::TreeBuilder builder_;
  std::unordered_map<std::uint64_t, calltree::NodeId> nodes_;
  std::unordered_map<std::uint64_t, calltree::MethodId> methods_;
};

}  // namespace

std::vector<SliceRun> read_slice(const ClickHouse& server) {
  const FleetUrl& url = server.url();
  check_schema(server);
  const Tables tables = tables_of(url);
  const detail::SliceSql sql = detail::slice_sql(url.slice, tables);
  const detail::Overview overview = detail::overview_of(server, tables, sql);
  if (overview.recordings == 0)
    throw Error(url.shown() + ": no samples in this slice; " + store_contents(server, tables));
  SliceMetrics metrics = metrics_of(server, tables, sql);
  if (metrics.specs.empty()) throw Error(url.shown() + ": the slice's recordings list no metrics");
  const auto hosts = run_names(server, tables, sql, url.runs_by);

  const std::string sums =
      server.query("SELECT " + run_key(url.runs_by) + " AS run, stack, cityHash64(metric) AS m, sum(value) FROM " +
                       tables.samples + " WHERE " + sql.samples + " GROUP BY run, stack, m FORMAT RowBinary",
                   spill_setting(server));
  std::map<std::string, std::vector<Sum>, std::less<>> runs;
  std::unordered_map<std::uint64_t, std::vector<Sum>*> by_key;
  RowReader in(sums, url.server() + ": sums");
  while (!in.done()) {
    const std::uint64_t key = in.u64();
    const std::uint64_t stack = in.u64();
    const std::uint64_t metric = in.u64();
    const std::int64_t value = in.i64();
    const auto k = metrics.by_hash.find(metric);
    if (k == metrics.by_hash.end())
      throw Error(url.server() + ": samples of a metric that no recording of the slice lists");
    auto run = by_key.find(key);
    if (run == by_key.end()) run = by_key.emplace(key, &runs[run_name(url.runs_by, key, hosts, url.server())]).first;
    run->second->push_back({stack, k->second, value});
  }
  keep_metrics_summed(metrics, runs);
  const auto trie = trie_of(server, tables, overview);
  const auto frames = frames_of(server, tables, overview);

  std::vector<SliceRun> out;
  for (auto& [run, run_sums] : runs) {
    RunTree tree(trie, frames, metrics.specs, url.server());
    // Sums come in the server's order, which varies; the tree's siblings must not.
    std::sort(run_sums.begin(), run_sums.end(),
              [](const Sum& a, const Sum& b) { return std::tie(a.stack, a.metric) < std::tie(b.stack, b.metric); });
    for (const Sum& s : run_sums) tree.add(s);
    calltree::Metadata metadata;
    metadata.mode = "fleet";
    metadata.metric = metrics.specs.front().name;
    metadata.unit = metrics.specs.front().unit;
    metadata.start_time_unix_ns = overview.first * 1'000'000'000;
    // No duration: the recordings may overlap or leave gaps. The last minute they cover instead.
    metadata.set_extra("last minute", time_text(overview.last));
    metadata.set_extra("source", url.shown());
    metadata.set_extra("recordings", std::to_string(overview.recordings));
    metadata.set_extra("hosts", std::to_string(overview.hosts.size()));
    out.push_back({url.shown() + run, std::move(tree).build(std::move(metadata))});
  }
  return out;
}

}  // namespace bn::fleet
