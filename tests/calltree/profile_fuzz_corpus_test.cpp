// The seed corpus of tests/fuzz/fuzz_native_reader, written by this test so the seeds always
// match the current format (tests/fuzz/README.md says how to run the fuzzer on it).

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::stream_bytes;
using bn::calltree::test::write_file;

namespace {

std::vector<std::byte> seed_profile() {
  return stream_bytes([](ProfileStreamWriter& w) {
    Metadata m;
    m.mode = "sample";
    m.sample_interval_ns = 1000;
    m.extra = {{"k", "v"}};
    w.write_metadata(m);
    const std::vector<std::string_view> s = {"main", "work", "io"};
    w.append_strings(s);
    const std::vector<NodeId> parents = {0, 1, 2, 1};
    const std::vector<MethodId> methods = {0, 1, 2, 2};
    w.append_nodes(parents, methods);
    // A second metric, so the fuzzer starts from the MTRC, MCST and MTOT chunks too.
    const std::vector<MetricSpec> calls = {{"calls", "count"}};
    w.declare_extra_metrics(calls);
    const std::vector<std::pair<NodeId, Cost>> costs = {{2, 5}, {1, 1}, {4, -3}, {2, 5}};
    w.add_costs(costs);
    const std::vector<std::pair<NodeId, Cost>> call_counts = {{1, 1}, {2, 4}, {3, 4}, {4, 2}};
    w.add_metric_costs(1, call_counts);
    const std::vector<std::byte> ancillary = {std::byte{7}};
    w.write_chunk("smpl", ancillary);
    w.finish();
  });
}

// The fuzzer's chunk-list form of `file` (see fuzz_native_reader.cpp): [tag][u16le length][raw].
std::vector<std::byte> as_chunk_list(const std::vector<std::byte>& file) {
  std::vector<std::byte> list = {std::byte{1}};
  ChunkDecompressor decompressor;
  for (std::size_t pos = kProfileHeaderSize; pos < file.size();) {
    const ChunkHeader h = decode_chunk_header(std::span(file).subspan(pos, kChunkHeaderSize), "seed");
    const auto raw =
        decompressor.decompress(std::span(file).subspan(pos + kChunkHeaderSize, h.payload_size), h.raw_size, "seed");
    REQUIRE(raw.size() < 65536);
    list.insert(list.end(), reinterpret_cast<const std::byte*>(h.tag.chars.data()),
                reinterpret_cast<const std::byte*>(h.tag.chars.data()) + 4);
    list.push_back(static_cast<std::byte>(raw.size() & 0xff));
    list.push_back(static_cast<std::byte>(raw.size() >> 8));
    list.insert(list.end(), raw.begin(), raw.end());
    pos += kChunkHeaderSize + h.payload_size;
  }
  return list;
}

}  // namespace

TEST_CASE("the fuzz seed corpus is written and every seed is a readable profile") {
  const std::filesystem::path dir = std::filesystem::path(BN_BINARY_DIR) / "fuzz-corpus" / "native_reader";
  std::filesystem::create_directories(dir);
  const auto file = seed_profile();
  std::vector<std::byte> whole = {std::byte{0}};
  whole.insert(whole.end(), file.begin(), file.end());
  write_file(dir / "whole-file", whole);
  write_file(dir / "chunk-list", as_chunk_list(file));

  const LoadedProfile p = read_profile_bytes(std::span(whole).subspan(1), "seed");
  CHECK(p.tree.node_count() == 5);
  CHECK(p.tree.total_cost() == 8);
  CHECK(p.tree.metric_total(1) == 11);
  CHECK(p.extra_chunks.size() == 1);
  CHECK(as_chunk_list(file).size() < file.size() * 2);
}
