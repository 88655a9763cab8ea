#include "bn/calltree/profile_writer.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "bn/iface/error.h"
#include "bn/io/output_file.h"
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

ProfileStreamWriter::ProfileStreamWriter(std::FILE* out, std::uint32_t max_chunk_raw)
    : out_(out), max_chunk_raw_(max_chunk_raw) {
  if (max_chunk_raw < kMinChunkRaw || max_chunk_raw > kMaxChunkRawSize)
    throw Error("profile chunk limit " + std::to_string(max_chunk_raw) + " is outside [" +
                std::to_string(kMinChunkRaw) + ", " + std::to_string(kMaxChunkRawSize) + "]");
  std::vector<std::byte> header(kProfileMagic.begin(), kProfileMagic.end());
  put_u32le(header, kProfileVersion);
  put_u32le(header, 0);  // flags
  write_bytes(out_, header, "header");
}

void ProfileStreamWriter::emit(ChunkTag tag, std::span<const std::byte> raw) {
  if (finished_) throw Error("cannot write profile chunk " + describe_tag(tag) + " after the END chunk");
  write_bytes(out_, encode_chunk(tag, raw), "chunk " + describe_tag(tag));
}

void ProfileStreamWriter::write_metadata(const Metadata& m) {
  ByteSink sink;
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
    ByteSink sink;
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
    ByteSink sink;
    const std::size_t n = encode_nodes(parents, methods, nodes_ + 1, max_chunk_raw_, sink);
    emit(kTagNodes, sink.data());
    nodes_ += static_cast<std::uint32_t>(n);
    parents = parents.subspan(n);
    methods = methods.subspan(n);
  }
}

void ProfileStreamWriter::add_costs(std::span<const std::pair<NodeId, Cost>> increments) {
  Cost total = total_cost_;
  for (const auto& [node, cost] : increments) {
    if (node > nodes_)
      throw Error("cannot add cost to node " + std::to_string(node) + ": only " + std::to_string(nodes_) +
                  " nodes were written");
    if (__builtin_add_overflow(total, cost, &total)) throw Error("cannot add costs: the total overflows 64 bits");
  }
  while (!increments.empty()) {
    ByteSink sink;
    const std::size_t n = encode_costs(increments, max_chunk_raw_, sink);
    emit(kTagCosts, sink.data());
    increments = increments.subspan(n);
  }
  total_cost_ = total;
}

void ProfileStreamWriter::write_chunk(ChunkTag tag, std::span<const std::byte> raw) {
  for (ChunkTag own : {kTagMeta, kTagStrings, kTagNodes, kTagCosts, kTagEnd})
    if (tag == own) throw Error("chunk " + describe_tag(tag) + " is written by its own ProfileStreamWriter method");
  emit(tag, raw);
}

void ProfileStreamWriter::finish() {
  ByteSink sink;
  encode_end({nodes_, strings_, total_cost_}, sink);
  emit(kTagEnd, sink.data());
  finished_ = true;
  if (std::fflush(out_) != 0) throw Error(std::string("cannot write profile: flush failed: ") + std::strerror(errno));
}

void write_profile(const CallTree& tree, const std::filesystem::path& path, std::span<const AncillaryChunk> ancillary) {
  io::OutputFile file(path);  // its errors name the path; its destructor removes the temporary file
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
    std::vector<std::pair<NodeId, Cost>> costs;
    for (NodeId i = 0; i < n; ++i)
      if (tree.cost(i) != 0) costs.emplace_back(i, tree.cost(i));
    writer.add_costs(costs);
    for (const auto& [tag, raw] : ancillary) writer.write_chunk(tag, raw);
    writer.finish();
  } catch (const Error& e) {
    throw Error("cannot write profile '" + path.string() + "': " + e.what());
  }
  file.commit();
}

}  // namespace bn::calltree
