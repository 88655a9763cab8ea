#include "bn/calltree/sample_records.h"

#include <limits>
#include <string>
#include <string_view>

#include "bn/base/error.h"
#include "byte_codec.h"

namespace bn::calltree {
namespace {

constexpr std::uint64_t kSampleFormat = 1;
constexpr std::uint64_t kFlagOwner = 1;
constexpr std::uint64_t kFlagCpu = 2;
// Smallest encodings, so a declared count never reserves more than the payload can hold.
constexpr std::size_t kMinThreadBytes = 8;
constexpr std::size_t kMinRecordBytes = 6;

std::uint32_t u32(ByteSource& in, const char* what) {
  const std::size_t at = in.offset();
  const std::uint64_t v = in.varint(what);
  if (v > std::numeric_limits<std::uint32_t>::max()) in.fail("the " + std::string(what) + " is too large", at);
  return static_cast<std::uint32_t>(v);
}

std::int32_t i32(ByteSource& in, const char* what) {
  const std::size_t at = in.offset();
  const std::int64_t v = in.zigzag(what);
  if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
    in.fail("the " + std::string(what) + " is out of range", at);
  return static_cast<std::int32_t>(v);
}

void decode_threads(ByteSource& in, SampleData& out) {
  const std::uint32_t count = in.count("thread count", kMinThreadBytes);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = in.offset();
    ThreadEntry e;
    e.index = u32(in, "thread index");
    e.java_id = in.zigzag("java thread id");
    e.os_tid = i32(in, "os tid");
    e.daemon = in.varint("daemon flag") != 0;
    e.name = in.string("thread name");
    e.thread_class = in.string("thread class");
    e.start_ns = in.zigzag("thread start");
    e.end_ns = in.zigzag("thread end");
    if (e.index < out.threads.size()) {
      out.threads[e.index] = std::move(e);
    } else if (e.index == out.threads.size()) {
      out.threads.push_back(std::move(e));
    } else {
      in.fail("thread index " + std::to_string(e.index) + " skips ahead of " + std::to_string(out.threads.size()) +
                  " known threads",
              at);
    }
  }
  if (!in.at_end()) in.fail("trailing bytes after the thread table");
}

SampleRecord decode_record(ByteSource& in, const SampleData& out, std::size_t file_nodes) {
  const std::size_t at = in.offset();
  SampleRecord r;
  r.thread = u32(in, "record thread");
  if (r.thread >= out.threads.size()) in.fail("record names unknown thread " + std::to_string(r.thread), at);
  r.node = u32(in, "record node");
  if (r.node > file_nodes) in.fail("record names unknown node " + std::to_string(r.node), at);
  r.state = u32(in, "record state");
  const std::uint64_t flags = in.varint("record flags");
  if (flags & ~(kFlagOwner | kFlagCpu)) in.fail("unknown record flags " + std::to_string(flags), at);
  if (flags & kFlagOwner) {
    r.owner = u32(in, "record owner");
    if (r.owner >= out.threads.size()) in.fail("record names unknown owner " + std::to_string(r.owner), at);
  }
  r.priority = i32(in, "record priority");
  r.nice = i32(in, "record nice");
  if (flags & kFlagCpu) {
    r.has_cpu = true;
    r.elapsed_ns = in.varint("record elapsed");
    r.run_ns = in.varint("record run time");
    r.wait_ns = in.varint("record wait time");
  }
  return r;
}

void decode_samples(ByteSource& in, SampleData& out, std::vector<NodeId>& parents) {
  if (in.varint("sample format") != kSampleFormat) in.fail("unknown sample format", 0);
  const std::uint32_t parent_count = in.count("parent count", 1);
  for (std::uint32_t i = 0; i < parent_count; ++i) {
    const std::size_t at = in.offset();
    const std::uint32_t p = u32(in, "node parent");
    if (p > parents.size()) in.fail("node parent " + std::to_string(p) + " is not an earlier node", at);
    parents.push_back(p);
  }
  const std::uint32_t tick_count = in.count("tick count", 2);
  std::int64_t time = 0;
  for (std::uint32_t t = 0; t < tick_count; ++t) {
    const std::size_t at = in.offset();
    const std::uint64_t delta = in.varint("tick time");
    if (delta > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - time))
      in.fail("tick time overflows", at);
    time += static_cast<std::int64_t>(delta);
    if (t == 0 && !out.ticks.empty() && time < out.ticks.back().time_ns) in.fail("tick time goes backwards", at);
    const std::uint32_t n = in.count("record count", kMinRecordBytes);
    if (out.records.size() + n > std::numeric_limits<std::uint32_t>::max()) in.fail("too many records", at);
    const SampleTick tick{time, static_cast<std::uint32_t>(out.records.size()), n};
    for (std::uint32_t i = 0; i < n; ++i) out.records.push_back(decode_record(in, out, parents.size()));
    out.ticks.push_back(tick);
  }
  if (!in.at_end()) in.fail("trailing bytes after the ticks");
}

// File ids → preorder ids. CallTree::build keeps siblings in file order, so the k-th file child
// of P is the k-th tree child of P's tree node.
std::vector<NodeId> map_file_nodes(const CallTree& tree, const std::vector<NodeId>& parents,
                                   const std::string& source) {
  const std::size_t n = tree.node_count();
  if (parents.size() >= n)
    throw Error(source + ": sample records describe " + std::to_string(parents.size()) + " nodes but the tree has " +
                std::to_string(n - 1));
  std::vector<std::uint32_t> first(n + 1, 0);  // counting sort of tree nodes by parent
  for (NodeId c = 1; c < n; ++c) ++first[tree.parent(c) + 1];
  for (std::size_t i = 1; i <= n; ++i) first[i] += first[i - 1];
  std::vector<NodeId> kids(n - 1);  // n > parents.size(): the root at least
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (NodeId c = 1; c < n; ++c) kids[fill[tree.parent(c)]++] = c;

  std::vector<NodeId> map(parents.size() + 1, kRootNode);
  std::vector<std::uint32_t> used(parents.size() + 1, 0);
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const NodeId tp = map[parents[i]];
    const std::uint32_t k = used[parents[i]]++;
    if (first[tp] + k >= first[tp + 1])
      throw Error(source + ": sample node " + std::to_string(i + 1) + " has no matching node in the call tree");
    map[i + 1] = kids[first[tp] + k];
  }
  return map;
}

}  // namespace

std::vector<std::byte> encode_threads(std::span<const ThreadEntry> entries) {
  ByteSink out;
  out.varint(entries.size());
  for (const ThreadEntry& e : entries) {
    out.varint(e.index);
    out.zigzag(e.java_id);
    out.zigzag(e.os_tid);
    out.varint(e.daemon ? 1 : 0);
    out.string(e.name);
    out.string(e.thread_class);
    out.zigzag(e.start_ns);
    out.zigzag(e.end_ns);
  }
  return out.take();
}

std::vector<std::byte> encode_samples(std::span<const NodeId> new_node_parents, std::span<const SampleTick> ticks,
                                      std::span<const SampleRecord> records) {
  ByteSink out;
  out.varint(kSampleFormat);
  out.varint(new_node_parents.size());
  for (NodeId p : new_node_parents) out.varint(p);
  out.varint(ticks.size());
  std::int64_t previous = 0;
  for (const SampleTick& t : ticks) {
    // The first tick is absolute, the others are deltas (ticks are in time order).
    out.varint(static_cast<std::uint64_t>(t.time_ns - previous));
    previous = t.time_ns;
    out.varint(t.record_count);
    for (const SampleRecord& r : records.subspan(t.first_record, t.record_count)) {
      out.varint(r.thread);
      out.varint(r.node);
      out.varint(r.state);
      out.varint((r.owner != kNoThread ? kFlagOwner : 0) | (r.has_cpu ? kFlagCpu : 0));
      if (r.owner != kNoThread) out.varint(r.owner);
      out.zigzag(r.priority);
      out.zigzag(r.nice);
      if (r.has_cpu) {
        out.varint(r.elapsed_ns);
        out.varint(r.run_ns);
        out.varint(r.wait_ns);
      }
    }
  }
  return out.take();
}

std::vector<AncillaryChunk> encode_sample_data(const CallTree& tree, const SampleData& samples,
                                               std::size_t records_per_chunk) {
  std::vector<AncillaryChunk> chunks;
  chunks.emplace_back(kTagThreads, encode_threads(samples.threads));
  std::vector<NodeId> parents;
  parents.reserve(tree.node_count() - 1);
  for (NodeId n = 1; n < tree.node_count(); ++n) parents.push_back(tree.parent(n));
  const std::span<const SampleTick> ticks = samples.ticks;
  std::size_t first = 0;
  do {
    std::size_t end = first, records = 0;
    while (end < ticks.size() && (end == first || records + ticks[end].record_count <= records_per_chunk))
      records += ticks[end++].record_count;
    chunks.emplace_back(kTagSamples,
                        encode_samples(first == 0 ? std::span<const NodeId>(parents) : std::span<const NodeId>(),
                                       ticks.subspan(first, end - first), samples.records));
    first = end;
  } while (first < ticks.size());
  return chunks;
}

SampleData decode_sample_data(const LoadedProfile& profile, const std::string& source) {
  SampleData out;
  std::vector<NodeId> parents;
  std::size_t chunk_no = 0;
  for (const auto& [tag, bytes] : profile.extra_chunks) {
    ++chunk_no;
    const std::string context = source + ": " + std::string(tag.view()) + " chunk " + std::to_string(chunk_no);
    if (tag == kTagThreads) {
      ByteSource in(bytes, context);
      decode_threads(in, out);
    } else if (tag == kTagSamples) {
      ByteSource in(bytes, context);
      decode_samples(in, out, parents);
    }
  }
  // Without nodes of their own, records can name only the root (decode_record): nothing to map,
  // and a profile without samples does not pay for indexing its tree's children.
  if (parents.empty()) return out;
  const std::vector<NodeId> map = map_file_nodes(profile.tree, parents, source);
  for (SampleRecord& r : out.records) r.node = map[r.node];
  return out;
}

}  // namespace bn::calltree
