#include "bn/calltree/jfr.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>

#include "bn/base/error.h"
#include "compress_util.h"
#include "jfr_writer.h"
#include "stack_counts.h"

using namespace bn::calltree;
using bn::calltree::testing::StackCounts;
using bn::calltree::testing::stacks_of;
using bn::test::JfrChunkWriter;
using bn::test::JfrSample;

namespace {

const std::vector<JfrSample> kSamples = {
    {"main", {"java/lang/Thread.run()V", "org/h2/Foo.bar(I)V"}},
    {"main", {"java/lang/Thread.run()V", "org/h2/Foo.bar(I)V"}},
    {"worker", {"java/lang/Thread.run()V", "org/h2/Foo$$Lambda$14+0x0000000800c02a00.run()V"}},
    {"worker", {"org/h2/Deep.cut()V"}, true},
};

std::string error_of(std::span<const std::byte> bytes) {
  try {
    read_jfr_bytes(bytes, "t.jfr");
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("JFR execution samples become stacks with the agent's frame names") {
  const auto bytes = JfrChunkWriter().chunk(kSamples);
  const CallTree tree = read_jfr_bytes(bytes, "t.jfr");
  CHECK(stacks_of(tree) == StackCounts{{"java.lang.Thread.run;org.h2.Foo.bar", 2},
                                       {"java.lang.Thread.run;org.h2.Foo$$Lambda.run", 1},
                                       {"[truncated];org.h2.Deep.cut", 1}});
  CHECK(tree.metadata().mode == "jfr");
  CHECK(tree.metadata().unit == "samples");
  CHECK(tree.metadata().find_extra("sample_types") ==
        "cpu 4, native 0, monitor-enter 0, monitor-wait 0, park 0 (events)");
}

TEST_CASE("JFR threads and signatures on request; several chunks add up; gzip is read too") {
  const auto one = JfrChunkWriter().chunk(kSamples);
  std::vector<std::byte> two = one;
  const auto second = JfrChunkWriter().chunk({{"main", {"A.b()V"}}});
  two.insert(two.end(), second.begin(), second.end());
  const auto stacks = stacks_of(read_jfr_bytes(two, "t.jfr", {.keep_signatures = true, .thread_frames = true}));
  CHECK(stacks.at("[thread main];java.lang.Thread.run()V;org.h2.Foo.bar(I)V") == 2);
  CHECK(stacks.at("[thread main];A.b()V") == 1);
  const std::string text(reinterpret_cast<const char*>(two.data()), two.size());
  CHECK(stacks_of(read_jfr_bytes(bn::test::gzip(text), "t.jfr.gz")).size() == 4);
}

TEST_CASE("JFR: an event kind the file lacks gives an empty tree, an unknown one an error") {
  const auto bytes = JfrChunkWriter().chunk(kSamples);
  CHECK(read_jfr_bytes(bytes, "t.jfr", {.sample_type = "park"}).node_count() == 1);
  CHECK_THROWS_WITH_AS(read_jfr_bytes(bytes, "t.jfr", {.sample_type = "wall"}),
                       "t.jfr: JFR: no sample type 'wall' (expected cpu, native, monitor-enter, monitor-wait, park)",
                       bn::Error);
}

TEST_CASE("JFR cut at every byte, or with its chunk size shrunk to match, gives one error line naming chunk and byte") {
  const auto bytes = JfrChunkWriter().chunk(kSamples);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string cut = error_of(std::span(bytes).first(n));
    if (n == 0) continue;  // an empty input is no chunk at all
    CHECK_MESSAGE(cut.starts_with("t.jfr: JFR chunk 1 at byte "), n);
    CHECK(cut.find('\n') == std::string::npos);
    // The same prefix claiming to be a whole chunk reaches the parsers inside the chunk.
    if (n < 68) continue;
    std::vector<std::byte> shrunk(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    for (int i = 0; i < 8; ++i) shrunk[8 + i] = static_cast<std::byte>(n >> (8 * (7 - i)));
    const std::string inner = error_of(shrunk);
    CHECK_MESSAGE(inner.starts_with("t.jfr: JFR chunk 1 at byte "), n, ": ", inner);
    CHECK(inner.find('\n') == std::string::npos);
  }
}

TEST_CASE("JFR with random bytes corrupted loads or gives one error line, never crashes") {
  const auto bytes = JfrChunkWriter().chunk(kSamples);
  std::mt19937 rng(18);
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::byte> bad = bytes;
    for (int k = 0; k < 1 + round % 4; ++k) bad[rng() % bad.size()] = static_cast<std::byte>(rng() % 256);
    const std::string e = error_of(bad);
    CHECK((e.empty() || (e.starts_with("t.jfr: JFR") && e.find('\n') == std::string::npos)));
  }
}
