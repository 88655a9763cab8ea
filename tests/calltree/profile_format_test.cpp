// Native profile format: round trips, streaming in flushes, chunk splitting and atomic writes.

#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/tree_builder.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::stream_bytes;
using bn::calltree::test::TempDir;

namespace {

Metadata full_metadata() {
  Metadata m;
  m.mode = "sample";
  m.metric = "cpu-time";
  m.unit = "ns";
  m.jvm = "OpenJDK 64-Bit Server VM 17.0.9";
  m.command_line = "java -jar h2.jar 'with spaces' ünïcode";
  m.start_time_unix_ns = 1700000000123456789;
  m.duration_ns = -5;  // negative values survive too
  m.sample_interval_ns = 10'000'000;
  m.extra = {{"threads", "12"}, {"source", "figure 2"}, {"empty", ""}};
  return m;
}

// Random stacks over a small alphabet with recursion, so names repeat at many depths.
CallTree random_tree(unsigned seed, int stacks) {
  std::mt19937 rng(seed);
  TreeBuilder b;
  std::vector<MethodId> methods;
  for (int i = 0; i < 40; ++i)
    methods.push_back(b.intern("pkg.Class" + std::to_string(i % 7) + ".m" + std::to_string(i)));
  for (int s = 0; s < stacks; ++s) {
    std::vector<MethodId> frames(1 + rng() % 12);
    for (auto& f : frames) f = methods[rng() % methods.size()];
    b.add_stack(frames, static_cast<Cost>(rng() % 1000) - 100);
  }
  return std::move(b).build(full_metadata());
}

void check_same_tree(const CallTree& a, const CallTree& b) {
  REQUIRE(a.node_count() == b.node_count());
  REQUIRE(a.method_count() == b.method_count());
  for (MethodId m = 0; m < a.method_count(); ++m) CHECK(a.method_name(m) == b.method_name(m));
  for (NodeId n = 0; n < a.node_count(); ++n) {
    CHECK(a.parent(n) == b.parent(n));
    CHECK(a.node_name(n) == b.node_name(n));
    CHECK(a.cost(n) == b.cost(n));
  }
  const Metadata &x = a.metadata(), &y = b.metadata();
  CHECK(x.mode == y.mode);
  CHECK(x.metric == y.metric);
  CHECK(x.unit == y.unit);
  CHECK(x.jvm == y.jvm);
  CHECK(x.command_line == y.command_line);
  CHECK(x.start_time_unix_ns == y.start_time_unix_ns);
  CHECK(x.duration_ns == y.duration_ns);
  CHECK(x.sample_interval_ns == y.sample_interval_ns);
  CHECK(x.extra == y.extra);
}

// Streams `tree` in one flush: its names, its nodes, metric 0's costs, END.
void stream_whole_tree(const CallTree& tree, ProfileStreamWriter& w) {
  w.write_metadata(tree.metadata());
  std::vector<std::string_view> strings;
  for (MethodId m = 0; m < tree.method_count(); ++m) strings.push_back(tree.method_name(m));
  w.append_strings(strings);
  std::vector<NodeId> parents;
  std::vector<MethodId> methods;
  std::vector<std::pair<NodeId, Cost>> costs;
  for (NodeId n = 1; n < tree.node_count(); ++n) {
    parents.push_back(tree.parent(n));
    methods.push_back(tree.method(n));
    costs.emplace_back(n, tree.cost(n));
  }
  w.append_nodes(parents, methods);
  w.add_costs(costs);
  w.finish();
}

}  // namespace

TEST_CASE("a written profile reads back with every node, name, cost and metadata field") {
  TempDir dir;
  const CallTree tree = random_tree(1, 2000);
  const auto path = dir.path() / "p.bnp";
  write_profile(tree, path);
  const LoadedProfile loaded = read_profile(path);
  CHECK_FALSE(loaded.unfinished);
  CHECK(loaded.warning.empty());
  CHECK(loaded.extra_chunks.empty());
  check_same_tree(tree, loaded.tree);
  CHECK(dir.entries() == std::vector<std::string>{"p.bnp"});  // no temporary file left behind
}

TEST_CASE("a tree with only the root round-trips") {
  TempDir dir;
  const CallTree tree = TreeBuilder().build({});
  write_profile(tree, dir.path() / "empty.bnp");
  const LoadedProfile loaded = read_profile(dir.path() / "empty.bnp");
  CHECK(loaded.tree.node_count() == 1);
  CHECK(loaded.tree.total_cost() == 0);
}

TEST_CASE("a profile streamed in several flushes reads back as the summed tree") {
  const auto bytes = stream_bytes([](ProfileStreamWriter& w) {
    Metadata m;
    m.mode = "sample";
    m.extra = {{"flushes", "1"}, {"kept", "yes"}};
    w.write_metadata(m);
    const std::vector<std::string_view> s1 = {"main", "work"};
    w.append_strings(s1);
    const std::vector<NodeId> p1 = {0, 1};
    const std::vector<MethodId> m1 = {0, 1};
    w.append_nodes(p1, m1);  // main (1) -> work (2)
    const std::vector<std::pair<NodeId, Cost>> c1 = {{2, 5}, {1, 1}, {2, 5}};
    w.add_costs(c1);
    const std::vector<std::string_view> s2 = {"io"};
    w.append_strings(s2);
    const std::vector<NodeId> p2 = {2, 1};
    const std::vector<MethodId> m2 = {2, 2};
    w.append_nodes(p2, m2);  // work -> io (3), main -> io (4)
    const std::vector<std::pair<NodeId, Cost>> c2 = {{3, 7}, {2, 1}, {4, 2}, {3, 1}};
    w.add_costs(c2);
    m.duration_ns = 99;
    m.extra = {{"flushes", "2"}};
    w.write_metadata(m);
    CHECK(w.strings_written() == 3);
    CHECK(w.nodes_written() == 4);
    w.finish();
  });
  const LoadedProfile p = read_profile_bytes(bytes, "stream");
  const CallTree& t = p.tree;
  REQUIRE(t.node_count() == 5);
  // Preorder: root, main, work, io (under work), io (under main).
  const std::vector<std::string> names = {"(root)", "main", "work", "io", "io"};
  const std::vector<Cost> costs = {0, 1, 11, 8, 2};
  for (NodeId n = 0; n < 5; ++n) {
    CHECK(t.node_name(n) == names[n]);
    CHECK(t.cost(n) == costs[n]);
  }
  CHECK(t.total_cost() == 22);
  CHECK(t.metadata().mode == "sample");
  CHECK(t.metadata().duration_ns == 99);
  // Later META chunks override key by key; keys they do not mention stay.
  CHECK(t.metadata().extra == std::vector<std::pair<std::string, std::string>>{{"flushes", "2"}, {"kept", "yes"}});
}

TEST_CASE("big tables are split into several chunks that read back as one") {
  const CallTree tree = random_tree(2, 500);
  std::size_t chunk_count = 0;
  const auto bytes = stream_bytes([&](ProfileStreamWriter& w) { stream_whole_tree(tree, w); }, 64);
  for (std::size_t pos = kProfileHeaderSize; pos < bytes.size(); ++chunk_count)
    pos += kChunkHeaderSize + get_u32le(std::span(bytes).subspan(pos + 4));
  CHECK(chunk_count > 50);
  check_same_tree(tree, read_profile_bytes(bytes, "split").tree);
}

// The agent streams at a lower zstd level than the analyzer writes (profile_sink.cpp): the level
// changes the bytes, never the profile.
TEST_CASE("a profile streamed at any compression level reads back as the same tree") {
  const CallTree tree = random_tree(3, 3000);
  const auto write_at = [&](int level) {
    return stream_bytes([&](ProfileStreamWriter& w) { stream_whole_tree(tree, w); }, kMaxChunkRawSize, level);
  };
  const auto fast = write_at(1);
  const auto dense = write_at(kDefaultCompressionLevel);
  CHECK(fast != dense);  // the level was applied
  check_same_tree(tree, read_profile_bytes(fast, "level 1").tree);
  check_same_tree(tree, read_profile_bytes(dense, "level 9").tree);
}

TEST_CASE("ancillary chunks are kept raw, in order, for later readers") {
  const std::vector<std::byte> a = {std::byte{1}, std::byte{2}}, b = {};
  const auto bytes = stream_bytes([&](ProfileStreamWriter& w) {
    w.write_chunk("smpl", a);
    w.write_chunk("xtra", b);
    w.finish();
  });
  const LoadedProfile p = read_profile_bytes(bytes, "ancillary");
  REQUIRE(p.extra_chunks.size() == 2);
  CHECK(p.extra_chunks[0].first == ChunkTag("smpl"));
  CHECK(p.extra_chunks[0].second == a);
  CHECK(p.extra_chunks[1].first == ChunkTag("xtra"));
  CHECK(p.extra_chunks[1].second.empty());
}

TEST_CASE("the stream writer refuses references the reader would reject") {
  std::vector<std::string_view> one = {"a"};
  stream_bytes(
      [&](ProfileStreamWriter& w) {
        w.append_strings(one);
        const std::vector<NodeId> self = {1};
        const std::vector<MethodId> m0 = {0}, m5 = {5};
        const std::vector<NodeId> root = {0};
        CHECK_THROWS_WITH_AS(w.append_nodes(self, m0), doctest::Contains("parent 1 is not an earlier node"), bn::Error);
        CHECK_THROWS_WITH_AS(w.append_nodes(root, m5), doctest::Contains("method id 5"), bn::Error);
        const std::vector<std::pair<NodeId, Cost>> bad = {{3, 1}};
        CHECK_THROWS_WITH_AS(w.add_costs(bad), doctest::Contains("node 3"), bn::Error);
        const std::vector<std::string_view> latin1 = {"caf\xe9"};
        CHECK_THROWS_WITH_AS(w.append_strings(latin1), doctest::Contains("not valid UTF-8"), bn::Error);
        CHECK_THROWS_WITH_AS(w.write_chunk("NODE", {}), doctest::Contains("its own"), bn::Error);
        const std::string long_name(100, 'x');
        const std::vector<std::string_view> too_long = {"fits", long_name};
        CHECK_THROWS_WITH_AS(w.append_strings(too_long), doctest::Contains("string 2: its 100 bytes exceed"),
                             bn::Error);
        CHECK(w.strings_written() == 1);
        CHECK(w.nodes_written() == 0);
        w.finish();
        CHECK_THROWS_WITH_AS(w.append_strings(one), doctest::Contains("after the END chunk"), bn::Error);
      },
      64);
}

TEST_CASE("is_native_profile recognises the magic bytes, not the extension") {
  const auto bytes = stream_bytes([](ProfileStreamWriter& w) { w.finish(); });
  CHECK(is_native_profile(bytes));
  CHECK_FALSE(is_native_profile(std::span(bytes).first(7)));
  const std::string text = "a;b;c 10\n";
  CHECK_FALSE(is_native_profile(std::as_bytes(std::span(text))));
}

TEST_CASE("ends_with_end_chunk tells a finished file from any prefix of it, from its tail alone") {
  TempDir dir;
  const auto bytes =
      stream_bytes([&](ProfileStreamWriter& w) { stream_whole_tree(random_tree(7, 300), w); }, 64);  // many chunks
  const auto path = dir.path() / "p.bnp";
  const auto write = [&](std::size_t n) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(n));
  };
  CHECK_FALSE(ends_with_end_chunk(path));  // not there yet
  write(bytes.size());
  CHECK(ends_with_end_chunk(path));
  for (std::size_t n = 0; n < bytes.size(); ++n) {  // a recorder still appending, cut anywhere
    write(n);
    INFO(n << " of " << bytes.size() << " bytes");
    CHECK_FALSE(ends_with_end_chunk(path));
  }
}

TEST_CASE("write_profile into a missing directory fails clearly and creates nothing") {
  TempDir dir;
  const auto path = dir.path() / "missing" / "p.bnp";
  const std::string expected = "cannot write '" + path.string() + "': cannot create a temporary file beside it";
  CHECK_THROWS_WITH_AS(write_profile(TreeBuilder().build({}), path), doctest::Contains(expected.c_str()), bn::Error);
  CHECK(dir.entries().empty());
}

TEST_CASE("write_profile replaces an existing profile") {
  TempDir dir;
  const auto path = dir.path() / "p.bnp";
  write_profile(random_tree(3, 10), path);
  const CallTree second = random_tree(4, 50);
  write_profile(second, path);
  check_same_tree(second, read_profile(path).tree);
  CHECK(dir.entries() == std::vector<std::string>{"p.bnp"});
}

TEST_CASE("write_profile that fails midway leaves the existing profile and no temporary file") {
  TempDir dir;
  const auto path = dir.path() / "p.bnp";
  const CallTree good = random_tree(5, 20);
  write_profile(good, path);
  Metadata clash;
  clash.extra = {{"mode", "a built-in key"}};
  const std::string expected = "cannot write profile '" + path.string() + "': metadata extra key 'mode'";
  CHECK_THROWS_WITH_AS(write_profile(TreeBuilder().build(std::move(clash)), path), doctest::Contains(expected.c_str()),
                       bn::Error);
  CHECK(dir.entries() == std::vector<std::string>{"p.bnp"});
  check_same_tree(good, read_profile(path).tree);
}
