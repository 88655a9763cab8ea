#include "bn/fleet/push.h"

#include <fstream>
#include <random>
#include <unordered_set>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "bn/fleet/schema.h"
#include "recording_rows.h"
#include "row_binary.h"
#include "stack_trie.h"

namespace bn::fleet {
namespace {

using detail::RowWriter;

// An INSERT's data is sent once this many bytes are encoded: memory stays bounded on a large
// recording, and the server's default block (a million rows) is not far off.
constexpr std::size_t kBatchBytes = std::size_t{32} << 20;

std::uint16_t day_of(std::int64_t unix_seconds) {
  return static_cast<std::uint16_t>(std::max<std::int64_t>(0, unix_seconds) / 86400);
}

std::uint64_t fresh_push_id() {
  std::random_device device;
  std::uint64_t id = 0;
  while (id == 0) id = (std::uint64_t{device()} << 32) ^ device();
  return id;
}

// One table's rows, sent in batches of kBatchBytes.
class Batches {
 public:
  Batches(const ClickHouse& server, std::string insert) : server_(server), insert_(std::move(insert)) {}
  RowWriter& rows() { return rows_; }
  void row_done() {
    ++count_;
    if (rows_.size() >= kBatchBytes) flush();
  }
  void flush() {
    if (rows_.size() == 0) return;
    sent_ += rows_.size();
    server_.insert(insert_, rows_.take());
  }
  std::uint64_t count() const { return count_; }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t encoded() const { return sent_ + rows_.size(); }

 private:
  const ClickHouse& server_;
  std::string insert_;
  RowWriter rows_;
  std::uint64_t count_ = 0, sent_ = 0;
};

// What every row of a push repeats.
struct RowHead {
  std::uint16_t day;
  std::string service, version, host;
  std::vector<std::string> labels;  // KEY=VALUE
  std::uint64_t recording, push;
};

// The frames and trie nodes `r` needs, but those `known` (the previous snapshot's, stored on the
// same day) already holds.
void send_trie(const ClickHouse& server, const Tables& tables, const Recording& r, const RowHead& head,
               const detail::StackTrie& trie, const std::unordered_set<std::uint64_t>& known, std::uint64_t& sent) {
  Batches frames(server, "INSERT INTO " + tables.frames + " (day, service, id, name) FORMAT RowBinary");
  std::vector<bool> used(r.tree.method_count(), false);
  Batches nodes(server, "INSERT INTO " + tables.stacks + " (day, service, id, parent, frame) FORMAT RowBinary");
  for (calltree::NodeId v = 1; v < r.tree.node_count(); ++v) {
    if (!trie.kept[v] || known.contains(trie.id[v])) continue;
    const calltree::MethodId m = r.tree.method(v);
    if (!used[m]) {
      used[m] = true;
      RowWriter& f = frames.rows();
      f.u16(head.day);
      f.string(head.service);
      f.u64(trie.frame_of_method[m]);
      f.string(r.tree.method_name(m));
      frames.row_done();
    }
    RowWriter& w = nodes.rows();
    w.u16(head.day);
    w.string(head.service);
    w.u64(trie.id[v]);
    w.u64(trie.id[r.tree.parent(v)]);
    w.u64(trie.frame_of_method[m]);
    nodes.row_done();
  }
  frames.flush();
  nodes.flush();
  sent += frames.sent() + nodes.sent();
}

std::uint64_t send_samples(const ClickHouse& server, const Tables& tables, const RowHead& head,
                           const detail::RecordingRows& rows, const PushProgress& progress) {
  Batches out(server, "INSERT INTO " + tables.samples +
                          " (day, time, service, version, host, thread_class, labels, recording, push, stack, metric, "
                          "unit, value) FORMAT RowBinary");
  for (const detail::SampleRow& row : rows.rows) {
    const detail::Metric& metric = rows.metrics[row.metric];
    RowWriter& w = out.rows();
    w.u16(head.day);
    w.u32(row.bucket);
    w.string(head.service);
    w.string(head.version);
    w.string(head.host);
    w.string(row.thread_class);
    w.strings(head.labels);
    w.u64(head.recording);
    w.u64(head.push);
    w.u64(row.stack);
    w.string(metric.name);
    w.string(metric.unit);
    w.i64(row.value);
    out.row_done();
    if (progress && out.count() % 65536 == 0) progress(out.encoded());
  }
  out.flush();
  if (progress) progress(out.sent());
  return out.sent();
}

// The row that makes the push count, written last.
std::uint64_t commit(const ClickHouse& server, const Tables& tables, const Recording& r, const RowHead& head,
                     const detail::RecordingRows& rows) {
  RowWriter w;
  w.u16(head.day);
  w.u32(static_cast<std::uint32_t>(std::max<std::int64_t>(0, r.at)));
  w.string(head.service);
  w.string(head.version);
  w.string(head.host);
  w.strings(head.labels);
  w.u64(head.recording);
  w.u64(head.push);
  w.u32(static_cast<std::uint32_t>(now_unix_seconds()));
  w.string(r.source);
  w.string(r.format);
  w.length(rows.metrics.size());
  for (const detail::Metric& m : rows.metrics) w.string(m.name);
  w.length(rows.metrics.size());
  for (const detail::Metric& m : rows.metrics) w.string(m.unit);
  w.u64(rows.rows.size());
  const std::uint64_t size = w.size();
  server.insert("INSERT INTO " + tables.recordings +
                    " (day, time, service, version, host, labels, recording, push, pushed, source, format, metrics, "
                    "units, rows) FORMAT RowBinary",
                w.take());
  return size;
}

}  // namespace

bool in_store(const ClickHouse& server, std::uint64_t recording) {
  const std::string count = server.query("SELECT count() FROM " + tables_of(server.url()).recordings +
                                         " WHERE recording = " + std::to_string(recording) + " FORMAT TSV");
  return !count.starts_with("0");
}

std::uint64_t content_id(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open '" + file.string() + "'");
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  std::vector<char> buffer(std::size_t{1} << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    XXH3_64bits_update(&state, buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw Error("cannot read '" + file.string() + "'");
  return XXH3_64bits_digest(&state);
}

PushOutcome push_recording(const ClickHouse& server, const Recording& r, const PushLabels& labels,
                           const PushProgress& progress, const Recording* since) {
  const Tables tables = tables_of(server.url());
  PushOutcome outcome;
  if (in_store(server, r.id)) return outcome;
  RowHead head{day_of(r.at), labels.service, labels.version, labels.host, {}, r.id, fresh_push_id()};
  for (const auto& [key, value] : labels.labels) head.labels.push_back(key + "=" + value);
  const detail::StackTrie trie = detail::stack_trie(r.tree);
  detail::RecordingRows rows = detail::recording_rows(r, trie);
  std::unordered_set<std::uint64_t> known;
  if (since) {
    const detail::StackTrie before = detail::stack_trie(since->tree);
    detail::subtract_rows(rows, detail::recording_rows(*since, before));
    // The store keeps stacks by day: a snapshot on a new day stores every one it needs again.
    if (day_of(since->at) == head.day)
      for (calltree::NodeId v = 1; v < since->tree.node_count(); ++v)
        if (before.kept[v]) known.insert(before.id[v]);
  }
  send_trie(server, tables, r, head, trie, known, outcome.bytes);
  outcome.bytes += send_samples(server, tables, head, rows, progress);
  outcome.bytes += commit(server, tables, r, head, rows);
  outcome.pushed = true;
  outcome.rows = rows.rows.size();
  return outcome;
}

}  // namespace bn::fleet
