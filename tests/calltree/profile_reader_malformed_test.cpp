// Native profile reader against malformed input: every defect is a one-line bn::Error naming
// the byte, chunk or node; nothing crashes or allocates from a declared size.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::add_chunk;
using bn::calltree::test::header_bytes;
using bn::calltree::test::load_error;
using bn::calltree::test::put_u32;
using bn::calltree::test::stream_bytes;

namespace {

// Three flushes of a small tree, then END: main -> work -> io, main -> io.
std::vector<std::byte> valid_stream() {
  return stream_bytes([](ProfileStreamWriter& w) {
    Metadata m;
    m.mode = "sample";
    w.write_metadata(m);
    const std::vector<std::string_view> s = {"main", "work", "io"};
    w.append_strings(s);
    const std::vector<NodeId> p1 = {0, 1};
    const std::vector<MethodId> m1 = {0, 1};
    w.append_nodes(p1, m1);
    const std::vector<std::pair<NodeId, Cost>> c1 = {{2, 5}, {1, 1}};
    w.add_costs(c1);
    const std::vector<NodeId> p2 = {2, 1};
    const std::vector<MethodId> m2 = {2, 2};
    w.append_nodes(p2, m2);
    const std::vector<std::pair<NodeId, Cost>> c2 = {{3, 7}, {4, 2}};
    w.add_costs(c2);
    w.finish();
  });
}

// Byte offsets where each chunk of `bytes` starts, plus the end of the file.
std::vector<std::size_t> chunk_starts(const std::vector<std::byte>& bytes) {
  std::vector<std::size_t> starts;
  for (std::size_t pos = kProfileHeaderSize; pos < bytes.size();) {
    starts.push_back(pos);
    pos += kChunkHeaderSize + get_u32le(std::span(bytes).subspan(pos + 4));
  }
  starts.push_back(bytes.size());
  return starts;
}

std::string error_of(const std::vector<std::byte>& bytes, const LoadOptions& options = {}) {
  return load_error(bytes, "bad.bnp", options);
}

// A file with the header, the given strings and a NODE chunk with a hand-written payload.
std::vector<std::byte> with_node_payload(const bn::calltree::ByteSink& node_payload) {
  auto file = header_bytes();
  bn::calltree::ByteSink strs;
  strs.varint(2);
  strs.string("a");
  strs.string("b");
  add_chunk(file, kTagStrings, strs);
  add_chunk(file, kTagNodes, node_payload);
  return file;
}

}  // namespace

TEST_CASE("a file without the magic bytes is refused at byte 0") {
  const std::string text = "a;b;c 10\n";
  const std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(text.data()),
                                     reinterpret_cast<const std::byte*>(text.data()) + text.size());
  CHECK(error_of(bytes) == "cannot read profile 'bad.bnp': not a bottlenecks profile (wrong magic bytes at byte 0)");
  auto mangled = valid_stream();
  mangled.erase(mangled.begin() + 4);  // a text-mode transfer turning "\r\n" into "\n"
  CHECK(error_of(mangled).find("wrong magic") != std::string::npos);
}

TEST_CASE("an unknown format version is refused with both versions named") {
  auto bytes = valid_stream();
  put_u32(bytes, 8, 7);
  CHECK(error_of(bytes) == "cannot read profile 'bad.bnp': unsupported profile version 7 (this build reads version 1)");
  bytes = valid_stream();
  put_u32(bytes, 12, 2);
  CHECK(error_of(bytes).find("unsupported header flags 0x00000002 at byte 12") != std::string::npos);
}

TEST_CASE(
    "a file cut at any byte is an error, or with accept_unfinished the complete chunks before the "
    "cut") {
  const auto full = valid_stream();
  const auto starts = chunk_starts(full);
  REQUIRE(starts.size() == 8);  // META, STRS, NODE, COST, NODE, COST, END, end of file
  const std::vector<std::size_t> nodes_after_chunks = {0, 0, 0, 2, 2, 4, 4, 4};  // by complete chunks
  const std::vector<Cost> cost_after_chunks = {0, 0, 0, 0, 6, 6, 15, 15};
  for (std::size_t len = 0; len < full.size(); ++len) {
    CAPTURE(len);
    const std::vector<std::byte> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len));
    const std::string strict = error_of(cut);
    CHECK(strict.rfind("cannot read profile 'bad.bnp': ", 0) == 0);
    if (len < kProfileHeaderSize) {
      CHECK_THROWS_AS(read_profile_bytes(cut, "cut", {.accept_unfinished = true}), bn::Error);
      continue;
    }
    const LoadedProfile p = read_profile_bytes(cut, "cut", {.accept_unfinished = true});
    std::size_t complete = 0;
    while (starts[complete + 1] <= len) ++complete;
    CHECK(p.unfinished);
    CHECK(p.warning.find("read the " + std::to_string(complete) + " complete chunks") != std::string::npos);
    CHECK(p.tree.node_count() == 1 + nodes_after_chunks[complete]);
    CHECK(p.tree.total_cost() == cost_after_chunks[complete]);
    CHECK(p.tree.metadata().mode == (complete >= 1 ? "sample" : ""));
  }
  CHECK_FALSE(read_profile_bytes(full, "full", {.accept_unfinished = true}).unfinished);
}

TEST_CASE("a chunk claiming more payload than the file holds is reported, not allocated") {
  auto bytes = valid_stream();
  const auto starts = chunk_starts(bytes);
  put_u32(bytes, starts[1] + 4, 0xfffffff0u);
  CHECK(error_of(bytes).find("chunk 'STRS' at byte " + std::to_string(starts[1]) +
                             " declares a payload of 4294967280 bytes") != std::string::npos);
}

TEST_CASE("a chunk whose raw size is wrong or over the limit is refused") {
  const auto starts = chunk_starts(valid_stream());
  auto bytes = valid_stream();
  put_u32(bytes, starts[1] + 8, kMaxChunkRawSize + 1);
  CHECK(error_of(bytes).find("more than the limit") != std::string::npos);
  bytes = valid_stream();
  const std::uint32_t raw = get_u32le(std::span(bytes).subspan(starts[1] + 8));
  put_u32(bytes, starts[1] + 8, raw + 1000);
  CHECK(error_of(bytes).find("but the header declares " + std::to_string(raw + 1000)) != std::string::npos);
  bytes = valid_stream();
  put_u32(bytes, starts[1] + 8, raw - 1);
  CHECK(error_of(bytes).find("more than the declared " + std::to_string(raw - 1)) != std::string::npos);
}

TEST_CASE("a corrupted payload fails the zstd checksum") {
  auto bytes = valid_stream();
  const auto starts = chunk_starts(bytes);
  bytes[starts[2] - 1] ^= std::byte{0x40};  // last byte of the STRS frame: its checksum
  const std::string e = error_of(bytes);
  CHECK(e.find("chunk 'STRS' at byte " + std::to_string(starts[1]) + ": corrupt payload") != std::string::npos);
  CHECK(e.find("checksum") != std::string::npos);
}

TEST_CASE("trailing bytes after the END chunk are refused") {
  auto bytes = valid_stream();
  const std::size_t end = bytes.size();
  bytes.push_back(std::byte{0});
  CHECK(error_of(bytes) == "cannot read profile 'bad.bnp': 1 bytes of trailing data at byte " + std::to_string(end) +
                               " after the END chunk");
}

TEST_CASE("node references to missing strings, to themselves and to later nodes are refused") {
  bn::calltree::ByteSink bad_method;
  bad_method.varint(2);
  bad_method.varint(1);
  bad_method.varint(1);
  bad_method.varint(0);
  bad_method.varint(2);  // node 2: method 2 of a 2-string table
  CHECK(error_of(with_node_payload(bad_method)).find("node 2 has method id 2, but only 2 strings precede it") !=
        std::string::npos);
  bn::calltree::ByteSink self;
  self.varint(1);
  self.varint(0);
  self.varint(0);
  CHECK(error_of(with_node_payload(self)).find("node 1 has parent distance 0, which names itself (a cycle)") !=
        std::string::npos);
  bn::calltree::ByteSink forward;
  forward.varint(2);
  forward.varint(1);
  forward.varint(3);  // node 2 would hang below node -1
  forward.varint(0);
  forward.varint(1);
  const std::string e = error_of(with_node_payload(forward));
  CHECK(e.find("node 2 has parent distance 3, which names no earlier node") != std::string::npos);
  CHECK(e.find("chunk 'NODE' at byte ") != std::string::npos);
  CHECK(e.find("payload byte 2") != std::string::npos);
}

TEST_CASE("a count larger than the chunk can hold is refused before allocating") {
  bn::calltree::ByteSink huge;
  huge.varint(4'000'000'000);
  huge.varint(1);
  huge.varint(0);
  CHECK(error_of(with_node_payload(huge))
            .find("node count 4000000000 needs at least 2 bytes each, but only 2 bytes remain") != std::string::npos);
}

TEST_CASE("two siblings with the same method are refused, naming the parent") {
  bn::calltree::ByteSink dup;
  dup.varint(2);
  dup.varint(1);
  dup.varint(2);  // both children of the root
  dup.varint(0);
  dup.varint(0);
  auto file = with_node_payload(dup);
  CHECK(error_of(file, {.accept_unfinished = true}).find("node 0 has two children labelled 'a'") != std::string::npos);
}

TEST_CASE("cost entries for unknown nodes or past 64 bits are refused") {
  auto file = header_bytes();
  bn::calltree::ByteSink costs;
  costs.varint(1);
  costs.zigzag(1);
  costs.zigzag(5);
  add_chunk(file, kTagCosts, costs);
  CHECK(error_of(file).find("cost entry 0 names a node outside the 1 nodes read so far") != std::string::npos);

  file = header_bytes();
  bn::calltree::ByteSink overflow;
  overflow.varint(2);
  overflow.zigzag(0);
  overflow.zigzag(INT64_MAX);
  overflow.zigzag(0);
  overflow.zigzag(1);
  add_chunk(file, kTagCosts, overflow);
  CHECK(error_of(file).find("the cost of node 0 overflows 64 bits") != std::string::npos);
}

TEST_CASE("an END chunk whose counts disagree with the file is refused") {
  auto file = header_bytes();
  bn::calltree::ByteSink end;
  end.varint(3);
  end.varint(0);
  end.zigzag(0);
  add_chunk(file, kTagEnd, end);
  CHECK(error_of(file).find("chunk 'END ' at byte 16: says 3 nodes, but the file has 0") != std::string::npos);
}

TEST_CASE("unknown critical chunks are refused, unknown ancillary ones skipped") {
  auto file = header_bytes();
  add_chunk(file, "ZZZZ", bn::calltree::ByteSink{});
  CHECK(error_of(file).find("chunk 'ZZZZ' at byte 16: unknown critical chunk") != std::string::npos);
  auto bytes = header_bytes();
  bytes.insert(bytes.end(), {std::byte{'1'}, std::byte{'A'}, std::byte{'B'}, std::byte{'C'}});
  bytes.resize(bytes.size() + 8);
  CHECK(error_of(bytes).find("invalid chunk tag '1ABC'") != std::string::npos);
}

TEST_CASE("metadata with a malformed integer or strings with bad UTF-8 are refused") {
  auto file = header_bytes();
  bn::calltree::ByteSink meta;
  meta.varint(1);
  meta.string("duration_ns");
  meta.string("12ms");
  add_chunk(file, kTagMeta, meta);
  CHECK(error_of(file).find("metadata key 'duration_ns' has value '12ms'") != std::string::npos);

  file = header_bytes();
  bn::calltree::ByteSink strs;
  strs.varint(1);
  strs.string("caf\xe9");
  add_chunk(file, kTagStrings, strs);
  CHECK(error_of(file).find("string 0 is not valid UTF-8") != std::string::npos);
}

TEST_CASE("a file without END is an error unless unfinished files are accepted") {
  auto bytes = valid_stream();
  const auto starts = chunk_starts(bytes);
  bytes.resize(starts[6]);  // drop END
  CHECK(error_of(bytes).find("ends at byte " + std::to_string(starts[6]) + " without an END chunk") !=
        std::string::npos);
  const LoadedProfile p = read_profile_bytes(bytes, "killed.bnp", {.accept_unfinished = true});
  CHECK(p.unfinished);
  CHECK(p.warning.find("profile 'killed.bnp' is unfinished") == 0);
  CHECK(p.tree.total_cost() == 15);
}

TEST_CASE("a missing file is reported with its path") {
  CHECK_THROWS_WITH_AS(read_profile("/nonexistent/dir/p.bnp"),
                       "cannot open profile '/nonexistent/dir/p.bnp': No such file or directory", bn::Error);
}

TEST_CASE("a file whose chunks decompress to far more than its size is refused with the limit named") {
  // 70 MiB of zeros compresses to a few kilobytes: 256 times the file's size is far below it, and
  // so is the 64 MiB floor.
  const std::vector<std::byte> zeros(std::size_t{70} << 20);
  const auto bytes = stream_bytes([&](ProfileStreamWriter& w) {
    w.write_chunk(ChunkTag("zzzz"), std::span(zeros).first(std::size_t{35} << 20));
    w.write_chunk(ChunkTag("zzzz"), std::span(zeros).first(std::size_t{35} << 20));
    w.finish();
  });
  REQUIRE(bytes.size() < (std::size_t{64} << 10));
  CHECK(error_of(bytes).find("decompress to more than 67108864 bytes, 256 times the file's size") != std::string::npos);
}

TEST_CASE("a small file cannot make a tree of millions of nodes") {
  // A chain of 1.2M nodes under one method: a few kilobytes compressed, over 2^20 + 16 per byte.
  const std::size_t n = 1'200'000;
  std::vector<NodeId> parents(n);
  for (std::size_t i = 0; i < n; ++i) parents[i] = static_cast<NodeId>(i);
  const std::vector<MethodId> methods(n, 0);
  const auto bytes = stream_bytes([&](ProfileStreamWriter& w) {
    const std::vector<std::string_view> s = {"f"};
    w.append_strings(s);
    w.append_nodes(parents, methods);
    w.finish();
  });
  REQUIRE(bytes.size() < (std::size_t{16} << 10));
  CHECK(error_of(bytes).find("the most a file of this size can hold") != std::string::npos);
}

TEST_CASE("repeated metadata keys load in linear time, the last value kept at the first place") {
  Metadata m;
  for (int i = 0; i < 200'000; ++i) m.extra.emplace_back("key" + std::to_string(i % 100'000), std::to_string(i));
  const auto bytes = stream_bytes([&](ProfileStreamWriter& w) {
    w.write_metadata(m);
    w.finish();
  });
  const Metadata read = read_profile_bytes(bytes, "keys.bnp").tree.metadata();
  REQUIRE(read.extra.size() == 100'000);
  CHECK(read.extra.front() == std::pair<std::string, std::string>{"key0", "100000"});
  CHECK(read.extra.back() == std::pair<std::string, std::string>{"key99999", "199999"});
}
