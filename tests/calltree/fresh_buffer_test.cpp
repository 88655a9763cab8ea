// The buffers of the file's bytes and of the decompressed payloads (fresh_buffer.h): from 1 MiB on a
// mapping of their own on huge pages, below that from new[]; either way every byte of the capacity
// holds what was written. A file of over 1 MiB read from disk (its bytes then in such a mapping)
// loads as the same bytes from memory do, and a cut-off, corrupt or unreadable one is refused with
// the message it has always had.

#include "fresh_buffer.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::load_error;
using bn::calltree::test::stream_bytes;
using bn::calltree::test::write_file;

namespace {

// Fills every byte of `b` from `seed` and checks them back.
bool holds_what_was_written(FreshBuffer& b, std::uint32_t seed) {
  std::minstd_rand fill(seed);
  for (std::size_t i = 0; i < b.capacity(); ++i) b.data()[i] = static_cast<std::byte>(fill());
  std::minstd_rand check(seed);
  for (std::size_t i = 0; i < b.capacity(); ++i)
    if (b.data()[i] != static_cast<std::byte>(check())) return false;
  return true;
}

// A small tree and an ancillary chunk of 1.5 MB of random bytes, which zstd cannot shrink: a file
// of over 1 MiB.
std::vector<std::byte> noisy_file() {
  std::vector<std::byte> noise(1'500'000);
  std::minstd_rand random(7);
  for (std::byte& b : noise) b = static_cast<std::byte>(random());
  return stream_bytes([&](ProfileStreamWriter& w) {
    const std::vector<std::string_view> s = {"main", "work"};
    w.append_strings(s);
    const std::vector<NodeId> parents = {0, 1};
    const std::vector<MethodId> methods = {0, 1};
    w.append_nodes(parents, methods);
    const std::vector<std::pair<NodeId, Cost>> costs = {{2, 5}, {1, 1}};
    w.add_costs(costs);
    w.write_chunk(ChunkTag("nois"), noise);
    w.finish();
  });
}

std::string file_error(const std::filesystem::path& path) {
  try {
    (void)read_profile(path);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a fresh buffer holds every byte of its capacity, mapped on huge pages from 1 MiB on") {
  for (const std::size_t capacity :
       {std::size_t{1}, std::size_t{65'536}, FreshBuffer::kHugePagesFrom - 1, FreshBuffer::kHugePagesFrom,
        std::size_t{2} << 20, (std::size_t{2} << 20) + 1, std::size_t{3'076'762}}) {
    CAPTURE(capacity);
    FreshBuffer b(capacity);
    CHECK(b.capacity() == capacity);
    CHECK(b.mapped() == (capacity >= FreshBuffer::kHugePagesFrom));
    if (b.mapped()) CHECK(reinterpret_cast<std::uintptr_t>(b.data()) % (std::uintptr_t{2} << 20) == 0);
    CHECK(holds_what_was_written(b, static_cast<std::uint32_t>(capacity)));
  }
}

TEST_CASE("a fresh buffer moves its bytes and leaves the one moved from empty") {
  for (const std::size_t capacity : {std::size_t{100}, std::size_t{3} << 20}) {
    CAPTURE(capacity);
    FreshBuffer a(capacity);
    REQUIRE(holds_what_was_written(a, 11));
    const std::byte* bytes = a.data();
    FreshBuffer b(std::move(a));
    CHECK(b.data() == bytes);
    CHECK(b.capacity() == capacity);
    CHECK(a.data() == nullptr);  // NOLINT(bugprone-use-after-move): what a move leaves is the point
    CHECK(a.capacity() == 0);
    FreshBuffer c(1 << 20);
    c = std::move(b);
    CHECK(c.data() == bytes);
    CHECK(c.mapped() == (capacity >= FreshBuffer::kHugePagesFrom));
    c = FreshBuffer();
    CHECK(c.data() == nullptr);
    CHECK(!c.mapped());
  }
}

TEST_CASE("a profile file of over 1 MiB loads from disk as its bytes do from memory") {
  const std::vector<std::byte> bytes = noisy_file();
  REQUIRE(bytes.size() > FreshBuffer::kHugePagesFrom);
  const bn::test::TempDir dir;
  write_file(dir.path() / "big.bnp", bytes);
  const LoadedProfile p = read_profile(dir.path() / "big.bnp");
  CHECK(p.tree.node_count() == 3);
  CHECK(p.tree.cum_cost(1) == 6);
  REQUIRE(p.extra_chunks.size() == 1);
  CHECK(p.extra_chunks[0].second.size() == 1'500'000);
  CHECK(p.extra_chunks[0].second == read_profile_bytes(bytes, "big.bnp").extra_chunks[0].second);
}

TEST_CASE("a cut-off, corrupt or unreadable profile file of over 1 MiB gets the message its bytes get") {
  const std::vector<std::byte> valid = noisy_file();
  const bn::test::TempDir dir;
  const std::filesystem::path path = dir.path() / "p.bnp";
  const std::string prefix = "cannot read profile '" + path.string() + "': ";
  const std::string from_bytes = "cannot read profile 'p.bnp': ";
  std::vector<std::byte> cut = valid;
  cut.resize(valid.size() - 100'000);  // inside the noise chunk's frame
  std::string error = load_error(cut, "p.bnp");
  REQUIRE(error.starts_with(from_bytes));
  write_file(path, cut);
  CHECK(file_error(path) == prefix + error.substr(from_bytes.size()));
  std::vector<std::byte> corrupt = valid;
  corrupt[valid.size() - 200'000] ^= std::byte{0x01};  // inside the noise chunk's frame
  error = load_error(corrupt, "p.bnp");
  REQUIRE(error.starts_with(from_bytes + "chunk 'nois' at byte "));
  write_file(path, corrupt);
  CHECK(file_error(path) == prefix + error.substr(from_bytes.size()));
  CHECK(file_error(dir.path()) == "cannot read profile '" + dir.path().string() + "': Is a directory");
}
