// The seed corpus of tests/fuzz/fuzz_causal_records, written by this test so that the seeds
// always match the current format: a format 1 chunk (throughput and end points) and a format 2
// chunk (a latency point, its departures and in-flight area), so that mutations start from every
// field the decoder reads. The harness's input is a list of [u16le length][payload].

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bn/calltree/causal_records.h"
#include "profile_test_util.h"

namespace ct = bn::calltree;

namespace {

std::vector<std::byte> as_chunk_list(const std::vector<std::vector<std::byte>>& chunks) {
  std::vector<std::byte> list;
  for (const std::vector<std::byte>& c : chunks) {
    list.push_back(static_cast<std::byte>(c.size() & 0xff));
    list.push_back(static_cast<std::byte>(c.size() >> 8));
    list.insert(list.end(), c.begin(), c.end());
  }
  return list;
}

ct::CausalData seed_header(ct::ProgressPoint point) {
  ct::CausalData h;
  h.period_ns = 1'000'000;
  h.targets = {{"parse", true, {{"a.Parser.parse"}, {"a.Lexer.next", "..", ":io"}}}};
  h.points = {{"a.Server.reply", ct::ProgressPoint::Kind::throughput}, std::move(point)};
  h.aspects = {{"io", "java.io.*"}};
  return h;
}

ct::CausalExperiment seed_experiment() {
  ct::CausalExperiment e;
  e.speedup = 50;
  e.duration_ns = 500'000'000;
  e.delay_ns = 20'000'000;
  e.samples = 900;
  e.target_samples = 300;
  e.progress = {40, 38};
  e.in_flight = {{}, {37, 90'000'000}};
  return e;
}

}  // namespace

TEST_CASE("the causal fuzz seed corpus is written and every seed decodes") {
  const std::filesystem::path dir = std::filesystem::path(BN_BINARY_DIR) / "fuzz-corpus" / "causal_records";
  std::filesystem::create_directories(dir);
  const std::vector<ct::CausalExperiment> experiments{seed_experiment()};
  const std::vector<std::byte> format1 =
      ct::encode_causal(seed_header({"end", ct::ProgressPoint::Kind::end}), experiments);
  const std::vector<std::byte> format2 = ct::encode_causal(
      seed_header({"a.Server.receive:a.Server.reply", ct::ProgressPoint::Kind::latency}), experiments);
  CHECK(format1.front() == std::byte{1});
  CHECK(format2.front() == std::byte{2});
  ct::test::write_file(dir / "format-1", as_chunk_list({format1}));
  ct::test::write_file(dir / "format-2", as_chunk_list({format2, format2}));
}
