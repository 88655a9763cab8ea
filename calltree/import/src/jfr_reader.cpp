// Reading JFR files (jfr.h): chunk by chunk from a (possibly compressed) stream. Per chunk: the
// 68-byte header (ChunkHeader in the JDK), the metadata event it points to (jfr_metadata.h), the
// constant pools of all checkpoint events (jfr_pools.h), then one pass over the events that adds
// the chosen kind's stacks to the tree. Stacks, methods and threads are resolved once per chunk
// and cached by their pool keys, so a sample costs a hash lookup.

#include <array>
#include <unordered_map>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/decompress.h"
#include "bn/calltree/frame_names.h"
#include "bn/calltree/jfr.h"
#include "bn/calltree/tree_builder.h"
#include "input_limits.h"
#include "jfr_cursor.h"
#include "jfr_metadata.h"
#include "jfr_pools.h"
#include "jfr_values.h"

namespace bn::calltree {
namespace {

using namespace jfr;

constexpr std::size_t kHeaderBytes = 68;
constexpr std::uint8_t kMagic[] = {'F', 'L', 'R', 0};
constexpr std::size_t kFileStateByte = 64, kFlagByte = 67;
constexpr std::uint8_t kCompressedInts = 1;  // flag byte bit 0
constexpr std::size_t kJfrReadChunk = std::size_t{1} << 20;

struct EventKind {
  std::string_view option;  // ImportOptions::sample_type
  std::string_view event;   // the JFR event type
  bool timed;               // cost = duration in ns, else 1 per event
  std::string_view thread;  // the field naming the thread
};
constexpr std::array<EventKind, 5> kKinds = {{
    {"cpu", "jdk.ExecutionSample", false, "sampledThread"},
    {"native", "jdk.NativeMethodSample", false, "sampledThread"},
    {"monitor-enter", "jdk.JavaMonitorEnter", true, "eventThread"},
    {"monitor-wait", "jdk.JavaMonitorWait", true, "eventThread"},
    {"park", "jdk.ThreadPark", true, "eventThread"},
}};

std::size_t kind_index(std::string_view option, const std::string& source) {
  if (option.empty()) return 0;
  std::string known;
  for (std::size_t i = 0; i < kKinds.size(); ++i) {
    if (kKinds[i].option == option) return i;
    known += (known.empty() ? "" : ", ") + std::string(kKinds[i].option);
  }
  throw Error(source + ": JFR: no sample type '" + std::string(option) + "' (expected " + known + ")");
}

class JfrImporter {
 public:
  JfrImporter(std::string source, bool decompressed, const ImportOptions& options)
      : source_(std::move(source)),
        decompressed_(decompressed),
        options_(options),
        kind_(kind_index(options.sample_type, source_)) {}

  // One whole chunk, its header included.
  void chunk(std::span<const std::uint8_t> bytes, std::uint64_t file_offset) {
    bytes_read_ += bytes.size();
    const ChunkPlace place{&source_, ++chunks_, file_offset, decompressed_};
    Cursor in(bytes, place);
    for (std::uint8_t m : kMagic)
      if (in.u8() != m) in.fail_at(0, "not a JFR chunk (no FLR magic)");
    const auto major = in.fixed(2), minor = in.fixed(2);
    if (major != 2)
      in.fail_at(4, "JFR version " + std::to_string(major) + "." + std::to_string(minor) +
                        " is not supported (this reader knows 2.x, written since JDK 11)");
    in.fixed(8);  // chunk size: the caller cut the chunk to it
    in.fixed(8);  // offset of the last checkpoint: every event is visited instead
    const std::uint64_t metadata_at = in.fixed(8);
    const auto start_ns = static_cast<std::int64_t>(in.fixed(8));
    const auto duration_ns = static_cast<std::int64_t>(in.fixed(8));
    in.fixed(8);  // start ticks
    ticks_per_second_ = in.fixed(8);
    if (bytes[kFileStateByte] != 0)
      in.fail_at(kFileStateByte, "the chunk was never finished (the recording was still being written)");
    if ((bytes[kFlagByte] & kCompressedInts) == 0)
      in.fail_at(kFlagByte, "integers are not compressed (a JDK 9 or 10 recording?); not supported");
    if (ticks_per_second_ == 0) in.fail_at(56, "zero ticks per second");
    if (metadata_at < kHeaderBytes || metadata_at >= bytes.size())
      in.fail_at(24, "metadata offset " + std::to_string(metadata_at) + " lies outside the chunk");
    if (start_ns_ == 0) start_ns_ = start_ns;
    end_ns_ = std::max(end_ns_, start_ns + duration_ns);

    in.seek(static_cast<std::size_t>(metadata_at));
    const JfrTypes types = JfrTypes::read(in);
    pools_ = read_pools(in, types, kHeaderBytes, bytes.size());
    methods_.clear();
    nodes_.clear();
    std::array<std::int64_t, kKinds.size()> type_ids{};
    for (std::size_t k = 0; k < kKinds.size(); ++k) {
      const JfrClass* cls = types.find(kKinds[k].event);
      type_ids[k] = cls == nullptr ? -1 : cls->id;
      if (k == kind_) chosen_ = cls;
    }
    for_each_event(in, kHeaderBytes, bytes.size(), [&](std::int64_t type, std::size_t next) {
      for (std::size_t k = 0; k < kKinds.size(); ++k) {
        if (type != type_ids[k]) continue;
        ++counts_[k];
        if (k == kind_) event(in, next);
      }
    });
  }

  CallTree finish(const std::string& file_name) && {
    Metadata m;
    m.mode = "jfr";
    const EventKind& kind = kKinds[kind_];
    m.metric = kind.timed ? std::string(kind.option) : "samples";
    m.unit = kind.timed ? "ns" : "samples";
    m.start_time_unix_ns = start_ns_;
    m.duration_ns = end_ns_ - start_ns_;
    m.set_extra("source", file_name);
    std::string counts;
    for (std::size_t k = 0; k < kKinds.size(); ++k)
      counts += (counts.empty() ? "" : ", ") + std::string(kKinds[k].option) + " " + std::to_string(counts_[k]);
    m.set_extra("sample_types", counts + " (events)");
    m.set_extra("chunks", std::to_string(chunks_));
    return std::move(builder_).build(std::move(m));
  }

 private:
  void event(Cursor& in, std::size_t next) {
    ValueReader values(in);
    const EventKind& kind = kKinds[kind_];
    std::int64_t stack = -1, thread = -1, duration = 0;
    for (const JfrField& f : chosen_->fields) {
      if (f.name == "stackTrace")
        stack = values.key(f);
      else if (f.name == kind.thread)
        thread = values.key(f);
      else if (kind.timed && f.name == "duration")
        duration = values.integer(f);
      else
        values.skip(f);
    }
    if (in.pos() > next) in.fail("event content runs past its size");
    Cost cost = 1;
    if (kind.timed) {
      if (duration < 0) in.fail("negative duration");
      cost = static_cast<Cost>(static_cast<unsigned __int128>(duration) * 1'000'000'000u / ticks_per_second_);
    }
    try {
      builder_.add_cost(node(in, stack, options_.thread_frames ? thread : -1), cost);
    } catch (const Error& e) {  // per-node cost overflow
      in.fail(e.what());
    }
  }

  // The node of a stack (and thread), created and cached on its first sample in this chunk.
  NodeId node(Cursor& in, std::int64_t stack, std::int64_t thread) {
    const auto [it, added] = nodes_.try_emplace({stack, thread}, kNoNode);
    if (!added) return it->second;
    frames_.clear();
    if (thread >= 0) frames_.push_back(builder_.intern("[thread " + thread_name(thread) + "]"));
    const auto s = pools_.stacks.find(stack);
    if (s == pools_.stacks.end()) {
      frames_.push_back(builder_.intern("[no stack trace]"));
    } else {
      // A stack cut at the recording's stackdepth lacks its outermost frames: keep it apart from
      // complete stacks rather than pretend its last frame is a root.
      if (s->second.truncated) frames_.push_back(builder_.intern("[truncated]"));
      for (std::uint32_t i = s->second.count; i-- > 0;)  // the top (innermost) frame comes first
        frames_.push_back(method(pools_.frame_methods[s->second.first + i]));
    }
    try {
      it->second = builder_.add_stack(frames_, 0);
    } catch (const Error& e) {  // node count overflow
      in.fail(e.what());
    }
    if (builder_.node_count() > std::max<std::uint64_t>(65536, kMaxNodesPerByte * bytes_read_))
      in.fail("the stacks expand to more than " + std::to_string(kMaxNodesPerByte) +
              " call-tree nodes per input byte (a hostile file?)");
    return it->second;
  }

  std::string thread_name(std::int64_t key) const {
    const auto t = pools_.threads.find(key);
    if (t == pools_.threads.end()) return "?";
    const std::string_view java = pools_.text(t->second.java_name);
    const std::string_view os = pools_.text(t->second.os_name);
    return std::string(!java.empty() ? java : !os.empty() ? os : "?");
  }

  MethodId method(std::int64_t key) {
    const auto [it, added] = methods_.try_emplace(key, kNoMethod);
    if (!added) return it->second;
    std::string name;
    if (const auto m = pools_.methods.find(key); m != pools_.methods.end()) {
      const auto c = pools_.classes.find(m->second.cls);
      const std::string_view cls = c == pools_.classes.end() ? std::string_view() : pools_.symbol(c->second);
      // Native frames written by async-profiler have no class: their name is the symbol.
      if (!cls.empty()) name.append(cls).append(".");
      name.append(pools_.symbol(m->second.name));
      // The descriptor only when signatures are kept, with ';' already as '|' (frame_names.cpp
      // rule 3): a frame normalize_frame does not take for Java keeps its text as it is.
      if (options_.keep_signatures)
        for (char ch : pools_.symbol(m->second.descriptor)) name += ch == ';' ? '|' : ch;
    }
    if (name.empty()) name = "[unknown]";
    it->second = builder_.intern(options_.normalize ? normalize_frame(name, options_.keep_signatures) : name);
    return it->second;
  }

  struct PairHash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const {
      return std::hash<std::int64_t>{}(p.first) * 31 + std::hash<std::int64_t>{}(p.second);
    }
  };

  std::string source_;
  bool decompressed_;
  ImportOptions options_;
  std::size_t kind_;
  TreeBuilder builder_;
  std::size_t chunks_ = 0;
  std::uint64_t bytes_read_ = 0;
  std::array<std::uint64_t, kKinds.size()> counts_{};
  std::int64_t start_ns_ = 0, end_ns_ = 0;

  // The current chunk's.
  std::uint64_t ticks_per_second_ = 1;
  ChunkPools pools_;
  const JfrClass* chosen_ = nullptr;
  std::unordered_map<std::int64_t, MethodId> methods_;
  std::unordered_map<std::pair<std::int64_t, std::int64_t>, NodeId, PairHash> nodes_;
  std::vector<MethodId> frames_;
};

// Fills `buffer` with up to `n` more bytes; returns how many arrived before the end.
std::size_t read_up_to(DecompressingInput& input, std::vector<std::uint8_t>& buffer, std::uint64_t n) {
  std::size_t got = 0;
  while (got < n) {
    // Grown as bytes actually arrive, never to a size the file declares.
    const std::size_t had = buffer.size();
    const auto step = static_cast<std::size_t>(std::min<std::uint64_t>(n - got, kJfrReadChunk));
    buffer.resize(had + step);
    const std::size_t r = input.read(std::span(reinterpret_cast<char*>(buffer.data()) + had, step));
    buffer.resize(had + r);
    if (r == 0) break;
    got += r;
  }
  return got;
}

CallTree read_all(DecompressingInput input, const std::string& file_name, const ImportOptions& options) {
  const bool decompressed = input.compression() != Compression::none;
  JfrImporter importer(input.source_name(), decompressed, options);
  std::vector<std::uint8_t> chunk;
  std::uint64_t offset = 0;
  for (std::size_t index = 1;; ++index) {
    chunk.clear();
    const std::size_t got = read_up_to(input, chunk, kHeaderBytes);
    const std::string where = input.source_name() + ": JFR chunk " + std::to_string(index) + " at byte " +
                              std::to_string(offset) + (decompressed ? " of the decompressed data" : "") + ": ";
    if (got == 0 && index > 1) break;
    if (got < kHeaderBytes)
      throw Error(where + "the file ends inside the chunk header (" + std::to_string(got) + " of " +
                  std::to_string(kHeaderBytes) + " bytes)");
    std::uint64_t size = 0;
    for (std::size_t i = 8; i < 16; ++i) size = (size << 8) | chunk[i];
    if (size < kHeaderBytes) throw Error(where + "chunk size " + std::to_string(size) + " is smaller than its header");
    if (read_up_to(input, chunk, size - kHeaderBytes) < size - kHeaderBytes)
      throw Error(where + "the file ends " + std::to_string(chunk.size()) + " bytes into the chunk, which declares " +
                  std::to_string(size) + " bytes");
    importer.chunk(chunk, offset);
    offset += size;
  }
  return std::move(importer).finish(file_name);
}

}  // namespace

CallTree read_jfr(const std::filesystem::path& path, const ImportOptions& options) {
  return read_all(DecompressingInput::open_file(path, options.max_decompressed_bytes, options.progress),
                  path.filename().string(), options);
}

CallTree read_jfr_bytes(std::span<const std::byte> bytes, std::string_view source_name, const ImportOptions& options) {
  return read_all(DecompressingInput::from_bytes(bytes, std::string(source_name), options.max_decompressed_bytes),
                  std::string(source_name), options);
}

bool is_jfr(std::span<const std::byte> head) {
  if (head.size() < sizeof kMagic) return false;
  for (std::size_t i = 0; i < sizeof kMagic; ++i)
    if (std::to_integer<std::uint8_t>(head[i]) != kMagic[i]) return false;
  return true;
}

}  // namespace bn::calltree
