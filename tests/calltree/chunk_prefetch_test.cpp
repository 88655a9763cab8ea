// The reader decompresses a chunk of 1 MiB or more while the chunk before it is decoded
// (chunk_prefetch.h). Files whose NODE and COST chunks are that big, with a defect in one or both:
// the first defect in file order is the one reported, with the message it has always had, whether
// the next chunk decompresses or not, read from bytes or from a file.

#include "chunk_prefetch.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::add_chunk;
using bn::calltree::test::header_bytes;
using bn::calltree::test::load_error;
using bn::calltree::test::put_u32;

namespace {

// A chain of 600,000 nodes below the root, methods 'a' and 'b' in turn, each costing 1: NODE and
// COST chunks of over 1 MiB each.
constexpr std::size_t kNodes = 600'000;

struct BigFile {
  std::vector<std::byte> bytes;
  std::size_t node_at = 0, cost_at = 0, end_at = 0;  // where the chunks start
};

// `bad_method`: the last node's method id is 5, with two strings.
BigFile big_file(bool bad_method = false) {
  BigFile f{header_bytes()};
  ByteSink strs;
  strs.varint(2);
  strs.string("a");
  strs.string("b");
  add_chunk(f.bytes, kTagStrings, strs);
  ByteSink nodes;
  nodes.varint(kNodes);
  for (std::size_t i = 0; i < kNodes; ++i) nodes.varint(1);
  for (std::size_t i = 0; i < kNodes; ++i) nodes.varint(bad_method && i + 1 == kNodes ? 5 : i % 2);
  f.node_at = f.bytes.size();
  add_chunk(f.bytes, kTagNodes, nodes);
  ByteSink costs;
  costs.varint(kNodes);
  for (std::size_t i = 0; i < kNodes; ++i) {
    costs.zigzag(1);
    costs.zigzag(1);
  }
  f.cost_at = f.bytes.size();
  add_chunk(f.bytes, kTagCosts, costs);
  ByteSink end;
  end.varint(kNodes);
  end.varint(2);
  end.zigzag(static_cast<Cost>(kNodes));
  f.end_at = f.bytes.size();
  add_chunk(f.bytes, kTagEnd, end);
  REQUIRE(nodes.size() >= ChunkPrefetch::kAheadRawSize);
  REQUIRE(costs.size() >= ChunkPrefetch::kAheadRawSize);
  return f;
}

std::string big_file_error(const std::vector<std::byte>& bytes) { return load_error(bytes, "big.bnp"); }

std::string cost_chunk(const BigFile& f) { return "chunk 'COST' at byte " + std::to_string(f.cost_at) + ": "; }

}  // namespace

TEST_CASE("a file of big chunks decompressed one ahead loads whole") {
  const LoadedProfile p = read_profile_bytes(big_file().bytes, "big.bnp");
  CHECK(p.tree.node_count() == kNodes + 1);
  CHECK(p.tree.total_cost() == static_cast<Cost>(kNodes));
  CHECK(p.tree.cum_cost(kNodes / 2) == static_cast<Cost>(kNodes / 2 + 1));
}

TEST_CASE("a defect in a chunk is reported before one in the chunk decompressed ahead of it") {
  BigFile f = big_file(true);
  const std::string node_error = big_file_error(f.bytes);
  CHECK(node_error == "cannot read profile 'big.bnp': chunk 'NODE' at byte " + std::to_string(f.node_at) +
                          ", payload byte " + std::to_string(2 * kNodes + 2) + ": node " + std::to_string(kNodes) +
                          " has method id 5, but only 2 strings precede it");
  f.bytes[f.end_at - 1] ^= std::byte{0x40};  // the COST frame's checksum
  CHECK(big_file_error(f.bytes) == node_error);
  put_u32(f.bytes, f.cost_at + 8, get_u32le(std::span(f.bytes).subspan(f.cost_at + 8)) + 1000);
  CHECK(big_file_error(f.bytes) == node_error);
}

TEST_CASE("a defect in a chunk decompressed ahead is reported when the reader reaches it") {
  const BigFile valid = big_file();
  const std::size_t raw = get_u32le(std::span(valid.bytes).subspan(valid.cost_at + 8));
  BigFile f = valid;
  f.bytes[f.end_at - 1] ^= std::byte{0x40};
  CHECK(big_file_error(f.bytes) ==
        "cannot read profile 'big.bnp': " + cost_chunk(f) + "corrupt payload: Restored data doesn't match checksum");
  f = valid;
  put_u32(f.bytes, f.cost_at + 8, static_cast<std::uint32_t>(raw + 1000));
  CHECK(big_file_error(f.bytes) == "cannot read profile 'big.bnp': " + cost_chunk(f) + "payload decompresses to " +
                                       std::to_string(raw) + " bytes, but the header declares " +
                                       std::to_string(raw + 1000));
  f = valid;
  put_u32(f.bytes, f.cost_at + 8, static_cast<std::uint32_t>(raw - 1));
  CHECK(big_file_error(f.bytes) == "cannot read profile 'big.bnp': " + cost_chunk(f) +
                                       "payload decompresses to more than the declared " + std::to_string(raw - 1) +
                                       " bytes");
  f = valid;
  f.bytes[f.cost_at] = std::byte{'1'};
  CHECK(big_file_error(f.bytes) ==
        "cannot read profile 'big.bnp': chunk at byte " + std::to_string(f.cost_at) +
            ": invalid chunk tag '1OST' (expected an ASCII letter and three printable characters)");
}

TEST_CASE("a file cut off inside a big chunk reads the chunks before it, from bytes and from a file") {
  BigFile f = big_file();
  f.bytes.resize((f.cost_at + kChunkHeaderSize + f.end_at) / 2);  // inside the COST frame
  const std::string why = "chunk 'COST' at byte " + std::to_string(f.cost_at) + " declares a payload of ";
  CHECK(big_file_error(f.bytes).find(why) != std::string::npos);
  const LoadedProfile p = read_profile_bytes(f.bytes, "big.bnp", {.accept_unfinished = true});
  CHECK(p.unfinished);
  CHECK(p.tree.node_count() == kNodes + 1);
  CHECK(p.tree.total_cost() == 0);

  const bn::test::TempDir dir;
  const auto path = dir.path() / "cut.bnp";
  std::FILE* out = std::fopen(path.c_str(), "wb");
  REQUIRE(out);
  REQUIRE(std::fwrite(f.bytes.data(), 1, f.bytes.size(), out) == f.bytes.size());
  std::fclose(out);
  CHECK_THROWS_WITH_AS(read_profile(path),
                       doctest::Contains(("cannot read profile '" + path.string() + "': " + why).c_str()), bn::Error);
  CHECK(read_profile(path, {.accept_unfinished = true}).tree.node_count() == kNodes + 1);
}
