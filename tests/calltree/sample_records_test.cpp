// The per-sample record chunks ("thrd", "smpl") shared by the agent and the analyzer: round
// trip through a real profile stream, and every malformed input gives one bn::Error line.

#include "bn/calltree/sample_records.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "profile_test_util.h"

namespace ct = bn::calltree;

namespace {

ct::ThreadEntry thread(std::uint32_t index, std::string name) {
  ct::ThreadEntry t;
  t.index = index;
  t.java_id = 100 + index;
  t.os_tid = 4000 + static_cast<std::int32_t>(index);
  t.name = std::move(name);
  t.thread_class = "java.lang.Thread";
  return t;
}

ct::SampleRecord sample(std::uint32_t thread, ct::NodeId node, std::uint32_t state = 5) {
  ct::SampleRecord r;
  r.thread = thread;
  r.node = node;
  r.state = state;
  r.priority = 5;
  return r;
}

// Nodes appended out of preorder: 1 main, 2 main>work, 3 main>idle, 4 main>work>hot.
// Preorder after loading: 1 main, 2 work, 3 hot, 4 idle.
const std::vector<ct::NodeId> kParents{0, 1, 1, 2};

std::vector<std::byte> profile(const std::vector<std::vector<std::byte>>& thrd,
                               const std::vector<std::vector<std::byte>>& smpl, bool finish = true) {
  return ct::test::stream_bytes([&](ct::ProfileStreamWriter& w) {
    const std::vector<std::string_view> names{"main", "work", "idle", "hot"};
    w.append_strings(names);
    const std::vector<ct::MethodId> methods{0, 1, 2, 3};
    w.append_nodes(kParents, methods);
    w.add_costs(std::vector<std::pair<ct::NodeId, ct::Cost>>{{4, 2}, {3, 1}});
    for (const auto& t : thrd) w.write_chunk(ct::kTagThreads, t);
    for (const auto& s : smpl) w.write_chunk(ct::kTagSamples, s);
    if (finish) w.finish();
  });
}

ct::SampleData decode(const std::vector<std::byte>& bytes) {
  return ct::decode_sample_data(ct::read_profile_bytes(bytes, "test.bnp"), "test.bnp");
}

std::string error_of(const std::vector<std::byte>& bytes) {
  try {
    decode(bytes);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "";
}

std::vector<std::byte> raw(std::initializer_list<unsigned> values) {
  std::vector<std::byte> out;
  for (unsigned v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

}  // namespace

TEST_CASE("sample records round-trip and their nodes map to the loaded tree's preorder ids") {
  const std::vector<ct::ThreadEntry> threads{thread(0, "main"), thread(1, "worker")};
  ct::SampleRecord blocked = sample(1, 3, 0x401);
  blocked.owner = 0;
  ct::SampleRecord timed = sample(0, 4);
  timed.has_cpu = true;
  timed.elapsed_ns = 20'000'000;
  timed.run_ns = 12'000'000;
  timed.wait_ns = 3'000'000;
  timed.nice = -5;
  const std::vector<ct::SampleRecord> records{timed, blocked, sample(0, 4)};
  const std::vector<ct::SampleTick> ticks{{1'000, 0, 2}, {21'000, 2, 1}};
  const auto bytes = profile({ct::encode_threads(threads)}, {ct::encode_samples(kParents, ticks, records)});

  const ct::LoadedProfile loaded = ct::read_profile_bytes(bytes, "test.bnp");
  const ct::SampleData d = ct::decode_sample_data(loaded, "test.bnp");
  CHECK(d.threads == threads);
  CHECK(d.ticks == ticks);
  REQUIRE(d.records.size() == 3);
  CHECK(loaded.tree.node_name(d.records[0].node) == "hot");
  CHECK(loaded.tree.node_name(loaded.tree.parent(d.records[0].node)) == "work");
  CHECK(loaded.tree.node_name(d.records[1].node) == "idle");
  CHECK(d.records[1].owner == 0);
  CHECK(d.records[0].run_ns == 12'000'000);
  CHECK(d.records[0].nice == -5);
  CHECK_FALSE(d.records[1].has_cpu);
}

TEST_CASE("a later thread entry updates an earlier one, and chunks continue each other") {
  ct::ThreadEntry renamed = thread(0, "renamed");
  renamed.end_ns = 99;
  const std::vector<ct::SampleRecord> first{sample(0, 1)};
  const std::vector<ct::SampleTick> t1{{5, 0, 1}}, t2{{7, 0, 1}};
  const auto bytes =
      profile({ct::encode_threads(std::vector{thread(0, "main")}), ct::encode_threads(std::vector{renamed})},
              {ct::encode_samples(std::vector<ct::NodeId>{0, 1}, t1, first),
               ct::encode_samples(std::vector<ct::NodeId>{1, 2}, t2, first)});
  const ct::SampleData d = decode(bytes);
  REQUIRE(d.threads.size() == 1);
  CHECK(d.threads[0].name == "renamed");
  CHECK(d.threads[0].end_ns == 99);
  CHECK(d.ticks.size() == 2);
  CHECK(d.ticks[1].first_record == 1);
}

TEST_CASE("sample data written with a whole tree read back the same, over several chunks") {
  // A recorder's file (nodes out of preorder) is loaded; its records are written again with
  // write_profile, whose node ids are the loaded tree's, and read back from the new file.
  const std::vector<ct::ThreadEntry> threads{thread(0, "main"), thread(1, "worker")};
  ct::SampleRecord timed = sample(1, 4);
  timed.has_cpu = true;
  timed.elapsed_ns = 7;
  timed.run_ns = 5;
  const std::vector<ct::SampleRecord> records{sample(0, 4), timed, sample(0, 3), sample(1, 2, 0x401), sample(0, 1)};
  const std::vector<ct::SampleTick> ticks{{10, 0, 2}, {20, 2, 2}, {30, 4, 1}};
  const ct::LoadedProfile first = ct::read_profile_bytes(
      profile({ct::encode_threads(threads)}, {ct::encode_samples(kParents, ticks, records)}), "first.bnp");
  const ct::SampleData d = ct::decode_sample_data(first, "first.bnp");

  const auto chunks = ct::encode_sample_data(first.tree, d, 2);  // at most 2 records a chunk
  CHECK(chunks.size() == 4);                                     // threads, then ticks 2 + 2 + 1
  ct::test::TempDir dir;
  ct::write_profile(first.tree, dir.path() / "again.bnp", chunks);
  const ct::LoadedProfile again = ct::read_profile(dir.path() / "again.bnp");
  const ct::SampleData e = ct::decode_sample_data(again, "again.bnp");
  CHECK(e.threads == d.threads);
  CHECK(e.ticks == d.ticks);
  CHECK(e.records == d.records);  // the same node ids: both trees are in the same preorder
  for (std::size_t i = 0; i < d.records.size(); ++i)
    CHECK(again.tree.node_name(e.records[i].node) == first.tree.node_name(d.records[i].node));
}

TEST_CASE("a profile without sample chunks decodes to empty sample data") {
  const ct::SampleData d = decode(profile({}, {}));
  CHECK(d.threads.empty());
  CHECK(d.records.empty());
}

TEST_CASE("malformed sample chunks are refused with the chunk and byte named") {
  const auto threads = ct::encode_threads(std::vector{thread(0, "main")});
  const std::vector<ct::SampleTick> tick{{5, 0, 1}};

  SUBCASE("a record naming a thread that is not in the table") {
    const auto s = ct::encode_samples(kParents, tick, std::vector{sample(3, 1)});
    CHECK(error_of(profile({threads}, {s})).find("unknown thread 3") != std::string::npos);
  }
  SUBCASE("a record naming a node the chunk's parents do not describe") {
    const auto s = ct::encode_samples(std::vector<ct::NodeId>{0}, tick, std::vector{sample(0, 2)});
    CHECK(error_of(profile({threads}, {s})).find("unknown node 2") != std::string::npos);
  }
  SUBCASE("a thread index that skips ahead") {
    const auto t = ct::encode_threads(std::vector{thread(2, "x")});
    CHECK(error_of(profile({t}, {})).find("skips ahead") != std::string::npos);
  }
  SUBCASE("time going backwards across chunks") {
    const std::vector<ct::SampleTick> later{{50, 0, 1}}, earlier{{10, 0, 1}};
    const auto a = ct::encode_samples(kParents, later, std::vector{sample(0, 1)});
    const auto b = ct::encode_samples(std::vector<ct::NodeId>{}, earlier, std::vector{sample(0, 1)});
    CHECK(error_of(profile({threads}, {a, b})).find("backwards") != std::string::npos);
  }
  SUBCASE("more nodes than the tree has") {
    const auto s = ct::encode_samples(std::vector<ct::NodeId>{0, 1, 1, 2, 4}, tick, std::vector{sample(0, 5)});
    CHECK(error_of(profile({threads}, {s})).find("tree has 4") != std::string::npos);
  }
  SUBCASE("parents that disagree with the tree") {
    const auto s = ct::encode_samples(std::vector<ct::NodeId>{0, 0, 0, 0}, tick, std::vector{sample(0, 1)});
    CHECK(error_of(profile({threads}, {s})).find("no matching node") != std::string::npos);
  }
  SUBCASE("a parent that is not an earlier node") {
    const auto s = ct::encode_samples(std::vector<ct::NodeId>{3}, tick, std::vector{sample(0, 1)});
    CHECK(error_of(profile({threads}, {s})).find("not an earlier node") != std::string::npos);
  }
  SUBCASE("a truncated record") {
    auto s = ct::encode_samples(kParents, tick, std::vector{sample(0, 1)});
    s.pop_back();
    const std::string e = error_of(profile({threads}, {s}));
    CHECK(e.find("smpl chunk 2") != std::string::npos);
    CHECK(e.find("payload byte") != std::string::npos);
  }
  SUBCASE("trailing bytes") {
    auto s = ct::encode_samples(kParents, tick, std::vector{sample(0, 1)});
    s.push_back(std::byte{0});
    CHECK(error_of(profile({threads}, {s})).find("trailing bytes") != std::string::npos);
  }
  SUBCASE("an unknown format version") {
    CHECK(error_of(profile({threads}, {raw({2, 0, 0})})).find("unknown sample format") != std::string::npos);
  }
  SUBCASE("a record count larger than the payload") {
    CHECK(error_of(profile({threads}, {raw({1, 0, 1, 5, 200, 1})})).find("record count") != std::string::npos);
  }
  SUBCASE("unknown record flags") {
    CHECK(error_of(profile({threads}, {raw({1, 0, 1, 5, 1, 0, 0, 5, 8, 0, 0})})).find("flags") != std::string::npos);
  }
}

TEST_CASE("sample records of a profile cut off mid-recording decode up to the last whole chunk") {
  const auto threads = ct::encode_threads(std::vector{thread(0, "main")});
  const std::vector<ct::SampleTick> tick{{5, 0, 1}};
  auto bytes = profile({threads}, {ct::encode_samples(kParents, tick, std::vector{sample(0, 4)})}, false);
  bytes.push_back(std::byte{'s'});  // the start of a chunk that never completed
  const ct::LoadedProfile loaded = ct::read_profile_bytes(bytes, "cut.bnp", ct::LoadOptions{true});
  CHECK(loaded.unfinished);
  const ct::SampleData d = ct::decode_sample_data(loaded, "cut.bnp");
  REQUIRE(d.records.size() == 1);
  CHECK(loaded.tree.node_name(d.records[0].node) == "hot");
}
