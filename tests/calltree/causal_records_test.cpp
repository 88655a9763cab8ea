// The causal experiment chunks ("caus") shared by the agent and the analyzer: round trip
// through a real profile stream, chunks and recordings pooled by name, and every malformed
// input gives one bn::Error line naming the file, the chunk and what is wrong.

#include "bn/calltree/causal_records.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_reader.h"
#include "byte_codec.h"
#include "profile_test_util.h"

namespace ct = bn::calltree;

namespace {

ct::CausalData header() {
  ct::CausalData h;
  h.period_ns = 1'000'000;
  h.targets = {{"parse", true, {{"a.Parser.parse"}, {"a.Lexer.next", "..", ":io"}}},
               {"a.Main.run;a.Work.step", false, {{"a.Main.run", "a.Work.step"}}}};
  h.points = {{"a.Server.reply", ct::ProgressPoint::Kind::throughput}, {"end", ct::ProgressPoint::Kind::end}};
  h.aspects = {{"io", "java.io.*"}};
  return h;
}

ct::CausalExperiment experiment(std::uint32_t target, std::uint32_t speedup, std::vector<std::uint64_t> progress) {
  ct::CausalExperiment e;
  e.target = target;
  e.speedup = speedup;
  e.start_ns = 5'000;
  e.duration_ns = 100'000'000;
  e.delay_ns = speedup * 100'000;
  e.samples = 40;
  e.target_samples = 9;
  e.progress = std::move(progress);
  e.in_flight.assign(e.progress.size(), ct::InFlight{});
  return e;
}

std::vector<std::byte> profile(const std::vector<std::vector<std::byte>>& chunks) {
  return ct::test::stream_bytes([&](ct::ProfileStreamWriter& w) {
    for (const auto& c : chunks) w.write_chunk(ct::kTagCausal, c);
    w.finish();
  });
}

ct::CausalData decode(const std::vector<std::vector<std::byte>>& chunks) {
  return ct::decode_causal(ct::read_profile_bytes(profile(chunks), "test.bnp"), "test.bnp");
}

// A chunk with `h`'s header and the raw bytes of one experiment after it.
std::vector<std::byte> with_raw_experiment(const ct::CausalData& h, const std::function<void(ct::ByteSink&)>& fields) {
  std::vector<std::byte> bytes = ct::encode_causal(h, {});
  bytes.pop_back();  // the experiment count, 0
  ct::ByteSink tail;
  tail.varint(1);
  fields(tail);
  bytes.insert(bytes.end(), tail.data().begin(), tail.data().end());
  return bytes;
}

}  // namespace

TEST_CASE("causal experiments round-trip through a profile, several chunks as one") {
  const ct::CausalData h = header();
  const std::vector<ct::CausalExperiment> first{experiment(0, 0, {10, 0}), experiment(1, 50, {7, 1})};
  const std::vector<ct::CausalExperiment> second{experiment(1, 100, {3, 0})};
  const ct::CausalData got = decode({ct::encode_causal(h, first), ct::encode_causal(h, second)});
  CHECK(got.period_ns == h.period_ns);
  CHECK(got.targets == h.targets);
  CHECK(got.points == h.points);
  CHECK(got.aspects == h.aspects);
  REQUIRE(got.experiments.size() == 3);
  CHECK(got.experiments[0] == first[0]);
  CHECK(got.experiments[1] == first[1]);
  CHECK(got.experiments[2] == second[0]);
}

TEST_CASE("a profile without causal chunks decodes as empty") {
  CHECK(decode({}).empty());
  CHECK(decode({}).targets.empty());
}

TEST_CASE("chunks that list targets in another order are matched by name") {
  ct::CausalData reordered = header();
  std::swap(reordered.targets[0], reordered.targets[1]);
  std::swap(reordered.points[0], reordered.points[1]);
  const ct::CausalData got = decode({ct::encode_causal(header(), std::vector{experiment(0, 0, {4, 0})}),
                                     ct::encode_causal(reordered, std::vector{experiment(0, 20, {0, 6})})});
  REQUIRE(got.targets.size() == 2);
  REQUIRE(got.experiments.size() == 2);
  CHECK(got.experiments[1].target == 1);  // reordered's 0 is the file's 1
  CHECK(got.experiments[1].progress == std::vector<std::uint64_t>{6, 0});
}

TEST_CASE("merge_causal pools recordings: new targets append, experiments follow their names") {
  ct::CausalData a = header();
  a.experiments = {experiment(0, 0, {1, 0})};
  ct::CausalData b = header();
  b.period_ns = 2'000'000;
  b.targets = {{"other", true, {{"x.Y.z"}}}, header().targets[0]};
  b.experiments = {experiment(0, 30, {2, 0}), experiment(1, 40, {3, 0})};
  const ct::CausalData got = ct::merge_causal({a, b});
  CHECK(got.period_ns == 1'000'000);
  REQUIRE(got.targets.size() == 3);
  CHECK(got.targets[2].name == "other");
  REQUIRE(got.experiments.size() == 3);
  CHECK(got.experiments[1].target == 2);
  CHECK(got.experiments[2].target == 0);
  CHECK(ct::merge_causal({}).empty());
}

TEST_CASE("merge_causal refuses names that mean two things and experiments of other points") {
  ct::CausalData a = header(), b = header();
  b.aspects = {{"io", "java.nio.*"}};
  CHECK_THROWS_WITH(ct::merge_causal({a, b}), "aspect 'io' is defined as 'java.io.*' and as 'java.nio.*'");
  b = header();
  b.targets[0].summaries.pop_back();
  CHECK_THROWS_WITH(ct::merge_causal({a, b}), "target 'parse' names two different targets");
  b = header();
  b.points[1].kind = ct::ProgressPoint::Kind::throughput;
  CHECK_THROWS_WITH(ct::merge_causal({a, b}), "progress point 'end' is of two different kinds");
  b = header();
  b.points = {{"other", ct::ProgressPoint::Kind::throughput}};
  a.experiments = {experiment(0, 0, {1, 1})};
  b.experiments = {experiment(0, 0, {1})};
  CHECK_THROWS_WITH(ct::merge_causal({a, b}),
                    doctest::Contains("count progress at 2 of the 3 progress points: recordings pool only"));
}

TEST_CASE("malformed causal chunks give one line naming the file, the chunk and the fault") {
  const ct::CausalData h = header();
  const auto fails_with = [](const std::vector<std::byte>& chunk, const std::string& message) {
    CAPTURE(message);
    CHECK_THROWS_WITH(decode({chunk}), doctest::Contains(message.c_str()));
  };
  std::vector<std::byte> good = ct::encode_causal(h, std::vector{experiment(0, 50, {1, 2})});
  fails_with(std::vector<std::byte>(good.begin(), good.end() - 1), "test.bnp: caus chunk 1, payload byte");
  fails_with(std::vector<std::byte>(good.begin(), good.end() - 1), "payload ends inside the progress count");
  std::vector<std::byte> trailing = good;
  trailing.push_back(std::byte{0});
  fails_with(trailing, "trailing bytes after the experiments");
  std::vector<std::byte> format = good;
  format[0] = std::byte{3};
  fails_with(format, "unknown causal format 3");
  const auto raw = [&](std::uint64_t target, std::uint64_t speedup, std::int64_t duration, std::int64_t delay) {
    return with_raw_experiment(h, [=](ct::ByteSink& s) {
      s.varint(target);
      s.varint(speedup);
      s.zigzag(0);
      s.zigzag(duration);
      s.zigzag(delay);
      s.varint(1);
      s.varint(0);
      s.varint(1);
      s.varint(1);
    });
  };
  CHECK_NOTHROW(decode({raw(1, 100, 10, 10)}));
  fails_with(raw(2, 0, 10, 0), "the experiment target 2 is past the chunk's 2");
  fails_with(raw(0, 101, 10, 0), "speedup 101% is above 100%");
  fails_with(raw(0, 5, -1, 0), "negative experiment duration -1");
  fails_with(raw(0, 5, 10, 11), "delay 11 ns is not within the experiment's 10 ns");
  fails_with(raw(0, 5, 10, -1), "delay -1 ns is not within");
}

TEST_CASE("a declared count larger than the chunk is refused before anything is reserved") {
  ct::ByteSink s;
  s.varint(1);
  s.zigzag(1000);
  s.varint(1'000'000'000);  // targets
  CHECK_THROWS_WITH(decode({s.take()}), doctest::Contains("target count"));
  ct::CausalData h = header();
  std::vector<std::byte> bytes = ct::encode_causal(h, {});
  bytes.pop_back();
  ct::ByteSink count;
  count.varint(100'000'000);
  bytes.insert(bytes.end(), count.data().begin(), count.data().end());
  CHECK_THROWS_WITH(decode({bytes}), doctest::Contains("experiment count"));
}

TEST_CASE("unknown target and point kinds are refused") {
  ct::ByteSink s;
  s.varint(1);
  s.zigzag(1000);
  s.varint(1);
  s.string("t");
  s.varint(2);  // kind: neither sequence nor label
  s.varint(0);
  CHECK_THROWS_WITH(decode({s.take()}), doctest::Contains("unknown target kind 2"));
  ct::ByteSink p;
  p.varint(1);
  p.zigzag(1000);
  p.varint(0);
  p.varint(1);
  p.string("end");
  p.varint(7);
  CHECK_THROWS_WITH(decode({p.take()}), doctest::Contains("unknown progress point kind 7"));
}

TEST_CASE("latency points round-trip in format 2; chunks without them stay in format 1") {
  ct::CausalData h = header();
  h.points = {{"a.Server.reply", ct::ProgressPoint::Kind::throughput},
              {"a.Server.receive:a.Server.reply", ct::ProgressPoint::Kind::latency}};
  ct::CausalExperiment e = experiment(1, 50, {12, 9});
  e.in_flight[1] = {8, 31'000'000};
  ct::CausalExperiment odd = experiment(0, 0, {0, 1});
  odd.in_flight[1] = {3, -500};  // more departures than arrivals: negative, and kept
  const std::vector<std::byte> chunk = ct::encode_causal(h, std::vector{e, odd});
  CHECK(chunk.front() == std::byte{2});
  CHECK(ct::encode_causal(header(), {}).front() == std::byte{1});
  const ct::CausalData got = decode({chunk});
  CHECK(got.points == h.points);
  REQUIRE(got.experiments.size() == 2);
  CHECK(got.experiments[0] == e);
  CHECK(got.experiments[1] == odd);
  // Pooled with a recording of the points in the other order, the in-flight counts follow.
  ct::CausalData reordered = h;
  std::swap(reordered.points[0], reordered.points[1]);
  ct::CausalExperiment swapped = experiment(1, 50, {9, 12});
  swapped.in_flight[0] = {8, 31'000'000};
  const ct::CausalData both = decode({chunk, ct::encode_causal(reordered, std::vector{swapped})});
  REQUIRE(both.experiments.size() == 3);
  CHECK(both.experiments[2] == e);
  std::vector<std::byte> truncated(chunk.begin(), chunk.end() - 1);
  CHECK_THROWS_WITH(decode({truncated}), doctest::Contains("payload ends inside the in-flight area"));
}

TEST_CASE("a latency point in a format 1 chunk is refused") {
  ct::ByteSink p;
  p.varint(1);
  p.zigzag(1000);
  p.varint(0);
  p.varint(1);
  p.string("a.B.c:a.B.d");
  p.varint(2);
  CHECK_THROWS_WITH(decode({p.take()}), doctest::Contains("unknown progress point kind 2"));
}

TEST_CASE("chunks of one file that disagree are named with the file") {
  ct::CausalData other = header();
  other.aspects = {{"io", "java.nio.*"}};
  CHECK_THROWS_WITH(decode({ct::encode_causal(header(), {}), ct::encode_causal(other, {})}),
                    "test.bnp: causal chunks disagree: aspect 'io' is defined as 'java.io.*' and as 'java.nio.*'");
}
