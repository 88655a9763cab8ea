#include "profile_chunks.h"

#include <array>
#include <charconv>
#include <future>
#include <mutex>
#include <optional>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/profile_format.h"

namespace bn::calltree {
namespace {

// Room for the leading varint count of any chunk (a count is at most 2^32 - 1).
constexpr std::size_t kCountBytes = 5;

constexpr std::array<std::string_view, 5> kTextKeys = {"mode", "metric", "unit", "jvm", "command_line"};
constexpr std::array<std::string_view, 3> kIntKeys = {"start_time_unix_ns", "duration_ns", "sample_interval_ns"};

std::array<std::string*, 5> text_fields(Metadata& m) { return {&m.mode, &m.metric, &m.unit, &m.jvm, &m.command_line}; }
std::array<const std::string*, 5> text_fields(const Metadata& m) {
  return {&m.mode, &m.metric, &m.unit, &m.jvm, &m.command_line};
}
std::array<std::int64_t*, 3> int_fields(Metadata& m) {
  return {&m.start_time_unix_ns, &m.duration_ns, &m.sample_interval_ns};
}
std::array<const std::int64_t*, 3> int_fields(const Metadata& m) {
  return {&m.start_time_unix_ns, &m.duration_ns, &m.sample_interval_ns};
}

bool is_known_key(std::string_view key) {
  for (auto k : kTextKeys)
    if (k == key) return true;
  for (auto k : kIntKeys)
    if (k == key) return true;
  return false;
}

}  // namespace

void encode_meta(const Metadata& m, ByteSink& out) {
  for (const auto& [key, value] : m.extra)
    if (key.empty() || is_known_key(key))
      throw Error("metadata extra key '" + key + "' is empty or collides with a built-in field");
  out.varint(kTextKeys.size() + kIntKeys.size() + m.extra.size());
  const auto texts = text_fields(m);
  for (std::size_t i = 0; i < kTextKeys.size(); ++i) {
    out.string(kTextKeys[i]);
    out.string(*texts[i]);
  }
  const auto ints = int_fields(m);
  for (std::size_t i = 0; i < kIntKeys.size(); ++i) {
    out.string(kIntKeys[i]);
    out.string(std::to_string(*ints[i]));
  }
  for (const auto& [key, value] : m.extra) {
    out.string(key);
    out.string(value);
  }
}

void decode_meta(ByteSource& in, Metadata& m) {
  const std::uint32_t n = in.count("metadata entry count", 2);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t at = in.offset();
    const std::string_view key = in.string({"key of metadata entry", i});
    const std::string_view value = in.string({"value of metadata entry", i});
    if (key.empty()) in.fail("metadata entry " + std::to_string(i) + " has an empty key", at);
    bool known = false;
    const auto texts = text_fields(m);
    for (std::size_t k = 0; k < kTextKeys.size(); ++k) {
      if (key == kTextKeys[k]) {
        *texts[k] = value;
        known = true;
      }
    }
    const auto ints = int_fields(m);
    for (std::size_t k = 0; k < kIntKeys.size(); ++k) {
      if (key != kIntKeys[k]) continue;
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size())
        in.fail("metadata key '" + std::string(key) + "' has value '" + std::string(value) +
                    "', which is not a 64-bit decimal integer",
                at);
      *ints[k] = v;
      known = true;
    }
    // Appended as read; read_profile keeps the last value of a repeated key once all are in
    // (set_extra per entry would be quadratic: 200,000 keys took minutes).
    if (!known) m.extra.emplace_back(key, value);
  }
  if (!in.at_end()) in.fail("unexpected bytes after the last metadata entry");
}

std::size_t encode_strings(std::span<const std::string_view> items, std::size_t limit, ByteSink& out) {
  std::size_t n = 0, bytes = kCountBytes;
  while (n < items.size()) {
    const std::size_t item = varint_size(items[n].size()) + items[n].size();
    if (bytes + item > limit) break;
    bytes += item;
    ++n;
  }
  if (n == 0 && !items.empty())
    throw Error("a method name of " + std::to_string(items[0].size()) + " bytes does not fit in a chunk");
  out.varint(n);
  for (std::size_t i = 0; i < n; ++i) out.string(items[i]);
  return n;
}

void decode_strings(ByteSource& in, StringTable& names) {
  const std::uint32_t n = in.count("string count", 1);
  if (names.size() + n >= kNoMethod) in.fail("more strings than a method id can number");
  names.reserve(names.size() + n);  // n is bounded by the payload's bytes (ByteSource::count)
  for (std::uint32_t i = 0; i < n; ++i) names.append(in.string({"string", names.size()}));
  if (!in.at_end()) in.fail("unexpected bytes after the last string");
}

std::size_t encode_nodes(std::span<const NodeId> parents, std::span<const MethodId> methods, NodeId first_id,
                         std::size_t limit, ByteSink& out) {
  std::size_t n = 0, bytes = kCountBytes;
  while (n < parents.size()) {
    const std::size_t item = varint_size(first_id + n - parents[n]) + varint_size(methods[n]);
    if (bytes + item > limit) break;
    bytes += item;
    ++n;
  }
  out.varint(n);
  for (std::size_t i = 0; i < n; ++i) out.varint(first_id + i - parents[i]);
  for (std::size_t i = 0; i < n; ++i) out.varint(methods[i]);
  return n;
}

namespace {

void decode_parents(ByteSource& in, NodeId* parent, std::size_t first, std::size_t end) {
  for (std::size_t id = first; id < end; ++id) {
    const std::size_t at = in.offset();
    const std::uint64_t distance = in.varint({"parent distance of node", id});
    if (distance == 0 || distance > id)
      in.fail("node " + std::to_string(id) + " has parent distance " + std::to_string(distance) + ", which names " +
                  (distance == 0 ? "itself (a cycle)" : "no earlier node (a forward reference)"),
              at);
    parent[id] = static_cast<NodeId>(id - distance);
  }
}

void decode_methods(ByteSource& in, MethodId* method, std::size_t first, std::size_t end, std::size_t string_count) {
  for (std::size_t id = first; id < end; ++id) {
    const std::size_t at = in.offset();
    const std::uint64_t m = in.varint({"method id of node", id});
    if (m >= string_count)
      in.fail("node " + std::to_string(id) + " has method id " + std::to_string(m) + ", but only " +
                  std::to_string(string_count) + " strings precede it",
              at);
    method[id] = static_cast<MethodId>(m);
  }
}

void expect_end(const ByteSource& in) {
  if (!in.at_end()) in.fail("unexpected bytes after the last node");
}

// A varint read takes at most this many bytes (ByteSource::varint; a longer one is refused).
constexpr std::size_t kMaxVarintRead = 10;

// Runs decode(from, to), which reads one varint per node from `in`, for the nodes [first, end):
// at once when the payload is whole (`growing` null), else in runs that read only bytes already
// out, waiting for more between them. The runs are one loop cut in pieces: the same values, the
// same first error.
template <class Decode>
void decode_as_out(ByteSource& in, const GrowingPayload* growing, std::size_t first, std::size_t end, Decode decode) {
  if (growing == nullptr) return decode(first, end);
  const std::size_t size = in.offset() + in.remaining();
  std::size_t ready = growing->ready();
  while (first < end) {
    if (ready >= size) return decode(first, end);
    const std::size_t out = ready > in.offset() ? ready - in.offset() : 0;
    const std::size_t run = std::min(end - first, out / kMaxVarintRead);
    if (run == 0) {
      ready = growing->wait_past(ready);
      continue;
    }
    decode(first, first + run);
    first += run;
  }
}

// Where a NODE chunk's method column is split between the two threads that decode it, and which
// of them zeroes the cost column. This thread decodes the parent column, then the method ids in
// runs from the first on. The second thread claims its share as soon as the payload is out whole:
// before this thread has begun the method column (the payload was whole from the start), the
// last three quarters (a method id takes ~2.5 times as long as a parent distance: at 10M nodes
// the parents took 21 ms, the method ids 53), and this thread zeroes the cost column after its
// share; once it has (a payload decoded as it grew), the second half of what this thread has
// not begun, after the cost column's zeros, which are then the second thread's: at 10M nodes the
// NODE chunk's decompression outlasts the parents, so this thread is into the method column when
// it ends, and the rest is best shared evenly.
class MethodSplit {
 public:
  MethodSplit(std::size_t first, std::size_t end) : first_(first), end_(end), limit_(end) {}

  // This thread, about to decode the method ids from `from` on, at payload offset `offset`: the
  // end of its next run (from < end), or `from` when the rest is the second thread's.
  std::size_t next_run(std::size_t from, std::size_t offset) {
    const std::lock_guard lock(mutex_);
    begun_ = true;
    decoded_ = from;
    offset_ = offset;
    if (from >= limit_) return from;
    reserved_ = std::min(limit_, from + kRun);
    return reserved_;
  }
  // This thread is done, or failed (SplitCloser): the second thread claims nothing after this.
  void close() {
    const std::lock_guard lock(mutex_);
    closed_ = true;
  }
  // Whether this thread decoded the last method id (and so checks that nothing follows it).
  bool whole_column_here() {
    const std::lock_guard lock(mutex_);
    return limit_ == end_;
  }
  // Whether the second thread zeroes the cost column (final once this thread is closed).
  bool costs_zeroed_there() {
    const std::lock_guard lock(mutex_);
    return second_zeroes_costs_;
  }

  // The second thread's share: its first node, and from where in the payload (which holds every
  // byte now) to count the varints before it; none if this thread is done or too little is left.
  struct Share {
    std::size_t first;
    std::size_t count_from;      // a payload offset where a varint starts
    std::size_t varints_before;  // varints from there to the share's first method id
  };
  std::optional<Share> claim(std::size_t parents_offset) {
    const std::lock_guard lock(mutex_);
    if (closed_) return std::nullopt;
    const std::size_t n = end_ - first_;
    if (!begun_) {
      limit_ = first_ + n / 4;
      return Share{limit_, parents_offset, n + n / 4};
    }
    second_zeroes_costs_ = true;
    if (end_ - reserved_ < 2 * kRun) return std::nullopt;
    limit_ = reserved_ + (end_ - reserved_) / 2;
    return Share{limit_, offset_, limit_ - decoded_};
  }

 private:
  static constexpr std::size_t kRun = std::size_t{1} << 14;  // ~0.1 ms of method ids
  const std::size_t first_, end_;
  std::mutex mutex_;
  std::size_t limit_;                 // this thread decodes the method ids below it
  bool begun_ = false;                // this thread has begun the method column
  bool closed_ = false;               // this thread is done
  bool second_zeroes_costs_ = false;  // the second thread zeroes the cost column
  std::size_t decoded_ = 0;           // this thread's method ids below it are decoded,
  std::size_t offset_ = 0;            // and the next one's varint starts here
  std::size_t reserved_ = 0;          // this thread's run in progress ends here
};

// Closes a MethodSplit however this thread leaves decode_nodes.
class SplitCloser {
 public:
  explicit SplitCloser(MethodSplit& split) : split_(split) {}
  ~SplitCloser() { split_.close(); }
  SplitCloser(const SplitCloser&) = delete;
  SplitCloser& operator=(const SplitCloser&) = delete;

 private:
  MethodSplit& split_;
};

}  // namespace

void decode_nodes(ByteSource& in, NodeTable& table, std::size_t string_count, std::uint64_t node_limit,
                  std::size_t two_threads_from, const GrowingPayload* growing) {
  // The count's varint: a whole varint's bytes out first, or the whole payload.
  if (growing != nullptr)
    for (std::size_t ready = growing->ready(); ready < std::min(kMaxVarintRead, in.remaining());)
      ready = growing->wait_past(ready);
  const std::uint32_t n = in.count("node count", 2);
  const std::size_t first = table.parent.size(), end = first + n;
  if (first - 1 + n > kMaxNodes) in.fail("more nodes than a node id can number");
  if (first - 1 + n > node_limit)
    in.fail("more than " + std::to_string(node_limit) + " nodes, the most a file of this size can hold");
  // n is bounded by the payload bytes (ByteSource::count). Sized once, written in place.
  table.method.resize(end);
  MethodId* method = table.method.data();
  const auto parents = [&](std::size_t from, std::size_t to) { decode_parents(in, table.parent.data(), from, to); };
  const auto methods = [&](std::size_t from, std::size_t to) { decode_methods(in, method, from, to, string_count); };
  if (n < two_threads_from) {
    table.parent.resize(end);
    decode_as_out(in, growing, first, end, parents);
    decode_as_out(in, growing, first, end, methods);
    expect_end(in);
    table.cost.resize(end, 0);
    return;
  }
  // A second thread decodes the method ids from the split on (MethodSplit), from where the
  // varints before them end (found by counting their last bytes); this thread the parent column
  // and the method ids before the split; either the cost column's zeros. Errors come in the order
  // of one pass: the second thread's is thrown only if everything before its nodes decoded (and
  // then those varints were well formed and ended where the count said). The future's destructor
  // joins the thread whatever is thrown here.
  MethodSplit split(first, end);
  std::future<void> rest =
      std::async(std::launch::async, [in, &table, method, end, string_count, growing, &split]() mutable {
        if (growing != nullptr && !growing->wait_whole()) return;  // the reader reports why
        const std::optional<MethodSplit::Share> share = split.claim(in.offset());
        if (split.costs_zeroed_there()) table.cost.resize(end, 0);
        if (!share) return;
        in.seek(share->count_from);
        const std::optional<std::size_t> start = in.offset_after_varints(share->varints_before);
        if (!start) return;  // the payload ends first: decoding on this thread says where
        in.seek(*start);
        decode_methods(in, method, share->first, end, string_count);
        expect_end(in);
      });
  {
    const SplitCloser closer(split);
    table.parent.resize(end);
    decode_as_out(in, growing, first, end, parents);
    for (std::size_t id = first, to; (to = split.next_run(id, in.offset())) != id; id = to)
      decode_as_out(in, growing, id, to, methods);
  }
  if (split.whole_column_here()) expect_end(in);
  if (!split.costs_zeroed_there()) table.cost.resize(end, 0);
  rest.get();
}

std::size_t encode_costs(std::span<const std::pair<NodeId, Cost>> items, std::size_t limit, ByteSink& out) {
  std::size_t n = 0, bytes = kCountBytes;
  std::int64_t prev = 0;
  while (n < items.size()) {
    const std::int64_t node = items[n].first;
    const std::size_t item = varint_size(zigzag_encode(node - prev)) + varint_size(zigzag_encode(items[n].second));
    if (bytes + item > limit) break;
    bytes += item;
    prev = node;
    ++n;
  }
  out.varint(n);
  prev = 0;
  for (std::size_t i = 0; i < n; ++i) {
    out.zigzag(std::int64_t{items[i].first} - prev);
    out.zigzag(items[i].second);
    prev = items[i].first;
  }
  return n;
}

// Entries between two words to an early walk (EarlyWalk): a wake-up of the walk's thread each,
// while the walk of 16k nodes takes ~0.2 ms.
constexpr std::uint32_t kEntriesPerWalkStep = 1u << 14;

void decode_costs(ByteSource& in, std::span<Cost> column, CostTally& tally, EarlyWalk* early) {
  const std::uint32_t n = in.count("cost entry count", 2);
  std::int64_t node = 0;
  __int128 sum = 0;
  std::uint64_t sign_bits = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t at = in.offset();
    const std::int64_t delta = in.zigzag({"node delta of cost entry", i});
    const std::int64_t cost = in.zigzag({"cost of entry", i});
    // |delta| and node are below 2^33 once node is checked, so the sum cannot overflow.
    if (delta > std::int64_t{1} << 33 || delta < -(std::int64_t{1} << 33) || node + delta < 0 ||
        node + delta >= static_cast<std::int64_t>(column.size()))
      in.fail("cost entry " + std::to_string(i) + " names a node outside the " + std::to_string(column.size()) +
                  " nodes read so far",
              at);
    if (early != nullptr && (delta < 0 || i % kEntriesPerWalkStep == 0)) {
      // Entries in node order leave the costs below this node final; one that goes back may
      // change a cost the walk has read (and is stopped before it does).
      if (delta < 0) {
        early->abandon();
        early = nullptr;
      } else {
        early->costs_final_below(static_cast<std::size_t>(node + delta));
      }
    }
    node += delta;
    if (__builtin_add_overflow(column[node], cost, &column[node]))
      in.fail("the cost of node " + std::to_string(node) + " overflows 64 bits", at);
    sum += cost;
    sign_bits |= static_cast<std::uint64_t>(cost);
  }
  if (!in.at_end()) in.fail("unexpected bytes after the last cost entry");
  if (early != nullptr) early->costs_final_below(column.size());
  tally.sum += sum;
  tally.negative |= (sign_bits >> 63) != 0;
}

void encode_metrics(std::span<const MetricSpec> extra, ByteSink& out) {
  out.varint(extra.size());
  for (const MetricSpec& m : extra) {
    out.string(m.name);
    out.string(m.unit);
  }
}

std::vector<MetricSpec> decode_metrics(ByteSource& in) {
  const std::uint32_t n = in.count("metric count", 2);
  if (n > kMaxExtraMetrics)
    in.fail(std::to_string(n) + " extra metrics, more than the " + std::to_string(kMaxExtraMetrics) + " supported");
  std::vector<MetricSpec> extra;
  for (std::uint32_t k = 1; k <= n; ++k) {
    const std::size_t at = in.offset();
    MetricSpec m{std::string(in.string({"name of metric", k})), std::string(in.string({"unit of metric", k}))};
    if (m.name.empty()) in.fail("metric " + std::to_string(k) + " has an empty name", at);
    for (std::size_t j = 0; j < extra.size(); ++j)
      if (extra[j].name == m.name)
        in.fail("metric " + std::to_string(k) + " is called '" + m.name + "' like metric " + std::to_string(j + 1), at);
    extra.push_back(std::move(m));
  }
  if (!in.at_end()) in.fail("unexpected bytes after the last metric");
  return extra;
}

std::size_t encode_metric_costs(std::uint32_t metric, std::span<const std::pair<NodeId, Cost>> items, std::size_t limit,
                                ByteSink& out) {
  out.varint(metric);
  return encode_costs(items, limit - varint_size(metric), out);
}

std::uint32_t decode_metric_index(ByteSource& in, std::size_t declared) {
  const std::uint64_t metric = in.varint("metric");
  if (metric == 0 || metric > declared)
    in.fail("costs for metric " + std::to_string(metric) + ", but " +
                (declared == 0 ? std::string("no MTRC chunk declared extra metrics before it")
                               : "the MTRC chunk declares metrics 1 to " + std::to_string(declared)),
            0);
  return static_cast<std::uint32_t>(metric);
}

void encode_metric_totals(std::span<const Cost> totals, ByteSink& out) {
  out.varint(totals.size());
  for (Cost t : totals) out.zigzag(t);
}

std::vector<Cost> decode_metric_totals(ByteSource& in) {
  const std::uint32_t n = in.count("metric count", 1);
  std::vector<Cost> totals(n);
  for (std::uint32_t k = 0; k < n; ++k) totals[k] = in.zigzag({"total cost of metric", k + 1});
  if (!in.at_end()) in.fail("unexpected bytes after the last total");
  return totals;
}

void encode_end(const EndCounts& counts, ByteSink& out) {
  out.varint(counts.nodes);
  out.varint(counts.strings);
  out.zigzag(counts.total_cost);
}

EndCounts decode_end(ByteSource& in) {
  EndCounts c;
  c.nodes = in.varint("node count");
  c.strings = in.varint("string count");
  c.total_cost = in.zigzag("total cost");
  if (!in.at_end()) in.fail("unexpected bytes after the total cost");
  return c;
}

}  // namespace bn::calltree
