#include "bn/calltree/profile_writer.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/base/output_file.h"
#include "byte_codec.h"
#include "chunk_framing.h"
#include "profile_chunks.h"

namespace bn::calltree {
namespace {

// Below this a single node or cost entry might not fit in a chunk.
constexpr std::uint32_t kMinChunkRaw = 64;

void write_bytes(std::FILE* out, std::span<const std::byte> bytes, const std::string& what) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size())
    throw Error("cannot write profile " + what + ": " + std::strerror(errno));
}

}  // namespace

ProfileStreamWriter::ProfileStreamWriter(std::FILE* out, std::uint32_t max_chunk_raw, int compression_level)
    : out_(out),
      compressor_(std::make_unique<ChunkCompressor>(compression_level)),
      sink_(std::make_unique<ByteSink>()),
      max_chunk_raw_(max_chunk_raw) {
  if (max_chunk_raw < kMinChunkRaw || max_chunk_raw > kMaxChunkRawSize)
    throw Error("profile chunk limit " + std::to_string(max_chunk_raw) + " is outside [" +
                std::to_string(kMinChunkRaw) + ", " + std::to_string(kMaxChunkRawSize) + "]");
  std::vector<std::byte> header(kProfileMagic.begin(), kProfileMagic.end());
  put_u32le(header, kProfileVersion);
  put_u32le(header, 0);  // flags
  write_bytes(out_, header, "header");
}

ProfileStreamWriter::~ProfileStreamWriter() = default;

ByteSink& ProfileStreamWriter::empty_sink() {
  sink_->clear();
  return *sink_;
}

void ProfileStreamWriter::emit(ChunkTag tag, std::span<const std::byte> raw) {
  if (finished_) throw Error("cannot write profile chunk " + describe_tag(tag) + " after the END chunk");
  write_bytes(out_, compressor_->encode(tag, raw), "chunk " + describe_tag(tag));
}

void ProfileStreamWriter::write_metadata(const Metadata& m) {
  ByteSink& sink = empty_sink();
  encode_meta(m, sink);
  emit(kTagMeta, sink.data());
}

void ProfileStreamWriter::append_strings(std::span<const std::string_view> strings) {
  if (strings_ + strings.size() >= kNoMethod) throw Error("cannot append strings: more than a method id can number");
  for (std::size_t i = 0; i < strings.size(); ++i) {
    if (!is_valid_utf8(strings[i]))
      throw Error("cannot append string " + std::to_string(strings_ + i) + ": it is not valid UTF-8");
    // Count and length varints take at most 15 bytes; a longer string could fit no chunk.
    if (strings[i].size() + 15 > max_chunk_raw_)
      throw Error("cannot append string " + std::to_string(strings_ + i) + ": its " +
                  std::to_string(strings[i].size()) + " bytes exceed the chunk limit");
  }
  while (!strings.empty()) {
    ByteSink& sink = empty_sink();
    const std::size_t n = encode_strings(strings, max_chunk_raw_, sink);
    emit(kTagStrings, sink.data());
    strings_ += static_cast<std::uint32_t>(n);
    strings = strings.subspan(n);
  }
}

void ProfileStreamWriter::append_nodes(std::span<const NodeId> parents, std::span<const MethodId> methods) {
  if (parents.size() != methods.size())
    throw Error("cannot append nodes: " + std::to_string(parents.size()) + " parents but " +
                std::to_string(methods.size()) + " methods");
  if (std::uint64_t{nodes_} + parents.size() > kMaxNodes)
    throw Error("cannot append nodes: more than a node id can number");
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const std::uint64_t id = std::uint64_t{nodes_} + 1 + i;
    if (parents[i] >= id)
      throw Error("cannot append node " + std::to_string(id) + ": its parent " + std::to_string(parents[i]) +
                  " is not an earlier node");
    if (methods[i] >= strings_)
      throw Error("cannot append node " + std::to_string(id) + ": method id " + std::to_string(methods[i]) +
                  " is not a written string");
  }
  while (!parents.empty()) {
    ByteSink& sink = empty_sink();
    const std::size_t n = encode_nodes(parents, methods, nodes_ + 1, max_chunk_raw_, sink);
    emit(kTagNodes, sink.data());
    nodes_ += static_cast<std::uint32_t>(n);
    parents = parents.subspan(n);
    methods = methods.subspan(n);
  }
}

Cost ProfileStreamWriter::checked_total(std::span<const std::pair<NodeId, Cost>> increments, Cost total) const {
  for (const auto& [node, cost] : increments) {
    if (node > nodes_)
      throw Error("cannot add cost to node " + std::to_string(node) + ": only " + std::to_string(nodes_) +
                  " nodes were written");
    if (__builtin_add_overflow(total, cost, &total)) throw Error("cannot add costs: the total overflows 64 bits");
  }
  return total;
}

void ProfileStreamWriter::add_costs(std::span<const std::pair<NodeId, Cost>> increments) {
  const Cost total = checked_total(increments, total_cost_);
  while (!increments.empty()) {
    ByteSink& sink = empty_sink();
    const std::size_t n = encode_costs(increments, max_chunk_raw_, sink);
    emit(kTagCosts, sink.data());
    costs_written_ = true;
    increments = increments.subspan(n);
  }
  total_cost_ = total;
}

void ProfileStreamWriter::declare_extra_metrics(std::span<const MetricSpec> extra) {
  if (metrics_declared_) throw Error("cannot declare extra metrics twice");
  if (costs_written_) throw Error("cannot declare extra metrics after a cost chunk");
  if (extra.size() > kMaxExtraMetrics)
    throw Error("cannot declare " + std::to_string(extra.size()) + " extra metrics: at most " +
                std::to_string(kMaxExtraMetrics));
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const std::string which = "cannot declare metric " + std::to_string(k + 1);
    if (extra[k].name.empty()) throw Error(which + ": it has no name");
    if (!is_valid_utf8(extra[k].name) || !is_valid_utf8(extra[k].unit))
      throw Error(which + ": its name or unit is not valid UTF-8");
    for (std::size_t j = 0; j < k; ++j)
      if (extra[j].name == extra[k].name)
        throw Error(which + ": it is called '" + extra[k].name + "' like metric " + std::to_string(j + 1));
  }
  if (!extra.empty()) {
    ByteSink& sink = empty_sink();
    encode_metrics(extra, sink);
    emit(kTagMetrics, sink.data());
  }
  metrics_declared_ = true;
  extra_totals_.assign(extra.size(), 0);
}

void ProfileStreamWriter::add_metric_costs(std::uint32_t metric, std::span<const std::pair<NodeId, Cost>> increments) {
  if (metric == 0) return add_costs(increments);
  if (metric > extra_totals_.size())
    throw Error("cannot add costs of metric " + std::to_string(metric) + ": " +
                (extra_totals_.empty()
                     ? std::string("no extra metric was declared")
                     : "only metrics 1 to " + std::to_string(extra_totals_.size()) + " were declared"));
  const Cost total = checked_total(increments, extra_totals_[metric - 1]);
  while (!increments.empty()) {
    ByteSink& sink = empty_sink();
    const std::size_t n = encode_metric_costs(metric, increments, max_chunk_raw_, sink);
    emit(kTagMetricCosts, sink.data());
    costs_written_ = true;
    increments = increments.subspan(n);
  }
  extra_totals_[metric - 1] = total;
}

void ProfileStreamWriter::write_chunk(ChunkTag tag, std::span<const std::byte> raw) {
  if (const KnownChunk* known = find_known_chunk(tag); known && known->reader == ChunkReader::tree)
    throw Error("chunk " + describe_tag(tag) + " is written by its own ProfileStreamWriter method");
  emit(tag, raw);
}

void ProfileStreamWriter::finish() {
  if (!extra_totals_.empty()) {
    ByteSink& totals = empty_sink();
    encode_metric_totals(extra_totals_, totals);
    emit(kTagMetricTotals, totals.data());
  }
  ByteSink& sink = empty_sink();
  encode_end({nodes_, strings_, total_cost_}, sink);
  emit(kTagEnd, sink.data());
  finished_ = true;
  if (std::fflush(out_) != 0) throw Error(std::string("cannot write profile: flush failed: ") + std::strerror(errno));
}

void write_profile(const CallTree& tree, const std::filesystem::path& path, std::span<const AncillaryChunk> ancillary) {
  base::OutputFile file(path);  // its errors name the path; its destructor removes the temporary file
  try {
    ProfileStreamWriter writer(file.stream());
    writer.write_metadata(tree.metadata());
    const StringTable& names = tree.names();
    std::vector<std::string_view> strings(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) strings[i] = names[static_cast<MethodId>(i)];
    writer.append_strings(strings);
    // CallTree numbers nodes in preorder with the root at 0, which are the file's ids already.
    const std::size_t n = tree.node_count();
    std::vector<NodeId> parents(n - 1);
    std::vector<MethodId> methods(n - 1);
    for (NodeId i = 1; i < n; ++i) {
      parents[i - 1] = tree.parent(i);
      methods[i - 1] = tree.method(i);
    }
    writer.append_nodes(parents, methods);
    std::vector<MetricSpec> extra;
    for (const MetricColumn& column : tree.extra_metrics()) extra.push_back(column.spec);
    writer.declare_extra_metrics(extra);
    std::vector<std::pair<NodeId, Cost>> costs;
    for (std::uint32_t metric = 0; metric < tree.metric_count(); ++metric) {
      costs.clear();
      for (NodeId i = 0; i < n; ++i)
        if (const Cost c = tree.metric_cost(metric, i); c != 0) costs.emplace_back(i, c);
      writer.add_metric_costs(metric, costs);
    }
    for (const auto& [tag, raw] : ancillary) writer.write_chunk(tag, raw);
    writer.finish();
  } catch (const Error& e) {
    throw Error("cannot write profile '" + path.string() + "': " + e.what());
  }
  file.commit();
}

}  // namespace bn::calltree
