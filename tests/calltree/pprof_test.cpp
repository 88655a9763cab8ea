#include "bn/calltree/pprof.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/collapsed.h"
#include "compress_util.h"
#include "profile.pb.h"
#include "stack_counts.h"

using namespace bn::calltree;
using bn::calltree::testing::StackCounts;
using bn::calltree::testing::stacks_of;
namespace pb = perftools::profiles;

namespace {

// A Go-like profile with two sample types, an inlined call, a thread label and an unsymbolised
// location.
pb::Profile example() {
  pb::Profile p;
  for (const char* s :
       {"", "samples", "count", "cpu", "nanoseconds", "main", "org/h2/Foo.bar", "inlined.helper", "thread", "worker-1"})
    p.add_string_table(s);
  for (auto [type, unit] : {std::pair{1, 2}, std::pair{3, 4}}) {
    pb::ValueType* t = p.add_sample_type();
    t->set_type(type);
    t->set_unit(unit);
  }
  for (int f = 1; f <= 3; ++f) {
    pb::Function* fn = p.add_function();
    fn->set_id(static_cast<std::uint64_t>(f * 10));
    fn->set_name(4 + f);
  }
  pb::Location* main = p.add_location();
  main->set_id(1);
  main->add_line()->set_function_id(10);
  pb::Location* bar = p.add_location();  // helper inlined into bar: the caller is the last line
  bar->set_id(2);
  bar->add_line()->set_function_id(30);
  bar->add_line()->set_function_id(20);
  pb::Location* raw = p.add_location();
  raw->set_id(3);
  raw->set_address(0xabc);
  pb::Sample* s = p.add_sample();
  for (std::uint64_t l : {2, 1}) s->add_location_id(l);  // leaf first
  s->add_value(3);
  s->add_value(30'000'000);
  pb::Label* label = s->add_label();
  label->set_key(8);
  label->set_str(9);
  pb::Sample* s2 = p.add_sample();
  for (std::uint64_t l : {3, 1}) s2->add_location_id(l);
  s2->add_value(1);
  s2->add_value(10'000'000);
  return p;
}

std::vector<std::byte> bytes_of(const pb::Profile& p) {
  const std::string s = p.SerializeAsString();
  const auto* b = reinterpret_cast<const std::byte*>(s.data());
  return {b, b + s.size()};
}

std::string error_of(std::span<const std::byte> bytes, const ImportOptions& options = {}) {
  try {
    read_pprof_bytes(bytes, "t.pb", options);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("pprof samples become stacks: inlined lines expanded, the last sample type by default") {
  const CallTree tree = read_pprof_bytes(bytes_of(example()), "t.pb");
  CHECK(stacks_of(tree) == StackCounts{{"main;org.h2.Foo.bar;inlined.helper", 30'000'000}, {"main;0xabc", 10'000'000}});
  CHECK(tree.metadata().metric == "cpu");
  CHECK(tree.metadata().unit == "ns");
  CHECK(tree.metadata().find_extra("sample_types") == "samples/count, cpu/nanoseconds");
}

TEST_CASE("pprof: --sample-type, default_sample_type and thread labels") {
  pb::Profile p = example();
  CHECK(read_pprof_bytes(bytes_of(p), "t.pb", {.sample_type = "samples"}).total_cost() == 4);
  p.set_default_sample_type(1);
  const CallTree by_default = read_pprof_bytes(bytes_of(p), "t.pb");
  CHECK(by_default.total_cost() == 4);
  CHECK(by_default.metadata().unit == "samples");
  const auto threads = stacks_of(read_pprof_bytes(bytes_of(p), "t.pb", {.thread_frames = true}));
  CHECK(threads.at("[thread worker-1];main;org.h2.Foo.bar;inlined.helper") == 3);
  CHECK(threads.at("main;0xabc") == 1);  // no label: no thread frame
  CHECK(error_of(bytes_of(p), {.sample_type = "alloc"}) ==
        "t.pb: pprof: no sample type 'alloc' (the file has samples, cpu)");
}

TEST_CASE("pprof keeps every sample type as a metric, and its export writes every metric back") {
  const CallTree tree = read_pprof_bytes(bytes_of(example()), "t.pb");
  REQUIRE(tree.metric_count() == 2);
  CHECK(tree.metric_spec(0).name == "cpu");  // the default: the last type
  CHECK(tree.metric_spec(1).name == "samples");
  CHECK(tree.metric_spec(1).unit == "samples");
  CHECK(tree.metric_total(1) == 4);
  CHECK(stacks_of(tree.with_metric(1)) == StackCounts{{"main;org.h2.Foo.bar;inlined.helper", 3}, {"main;0xabc", 1}});
  // Exported with metric 0 as default_sample_type, so it stays the default when read back.
  std::ostringstream out;
  write_pprof(tree.with_metric(1), out);
  const std::string text = out.str();
  const CallTree back = read_pprof_bytes(std::as_bytes(std::span(text.data(), text.size())), "back.pb");
  REQUIRE(back.metric_count() == 2);
  CHECK(back.metadata().metric == "samples");
  CHECK(back.metric_spec(1).name == "cpu");
  CHECK(back.metric_spec(1).unit == "ns");
  CHECK(stacks_of(back) == stacks_of(tree.with_metric(1)));
  CHECK(stacks_of(back.with_metric(1)) == stacks_of(tree));
  // A repeated type gets its position, so metrics stay apart by name.
  pb::Profile p = example();
  p.mutable_sample_type(1)->set_type(p.sample_type(0).type());
  const CallTree twice = read_pprof_bytes(bytes_of(p), "t.pb");
  CHECK(twice.metric_spec(0).name == "samples (2)");
  CHECK(twice.metric_spec(1).name == "samples");
}

TEST_CASE("pprof: references to undefined ids and strings are errors naming the byte") {
  pb::Profile p = example();
  p.mutable_sample(0)->set_location_id(0, 99);
  CHECK(error_of(bytes_of(p))
            .starts_with("t.pb: pprof: sample names location 99, which the file does not define at byte "));
  p = example();
  p.mutable_function(0)->set_name(1000);
  CHECK(error_of(bytes_of(p))
            .starts_with("t.pb: pprof: function names string 1000, but the string table has 10 entries"));
  p = example();
  p.mutable_sample(1)->add_value(5);
  CHECK(error_of(bytes_of(p)).starts_with("t.pb: pprof: sample has 3 values for 2 sample types"));
}

TEST_CASE("pprof export reads back as the same tree, zero-cost leaves included") {
  const CallTree tree = read_pprof_bytes(bytes_of(example()), "t.pb");
  std::ostringstream out;
  write_pprof(tree, out);
  const std::string text = out.str();
  const CallTree back = read_pprof_bytes(std::as_bytes(std::span(text.data(), text.size())), "back.pb");
  CHECK(stacks_of(back) == stacks_of(tree));
  CHECK(back.node_count() == tree.node_count());
  CHECK(back.metadata().metric == "cpu");
  CHECK(back.metadata().unit == "ns");
}

TEST_CASE("pprof cut at every byte loads a shorter message or gives one error line; gzipped, always an error") {
  const auto bytes = bytes_of(example());
  const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const auto gz = bn::test::gzip(text);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string e = error_of(std::span(bytes).first(n));
    CHECK((e.empty() || (e.starts_with("t.pb: pprof: ") && e.find('\n') == std::string::npos)));
  }
  for (std::size_t n = 1; n < gz.size(); ++n) {  // 0 bytes: an empty, plain file
    const std::string e = error_of(std::span(gz).first(n));
    CHECK_MESSAGE(e.starts_with("t.pb: "), n);
    CHECK(e.find('\n') == std::string::npos);
  }
}

// A thousand corruptions here; fuzz_pprof_reader (tests/fuzz, run by ./dev test) searches many
// more, guided by coverage.
TEST_CASE("pprof with random bytes corrupted loads or gives one error line") {
  const auto bytes = bytes_of(example());
  std::mt19937 rng(18);
  for (int round = 0; round < 1000; ++round) {
    std::vector<std::byte> bad = bytes;
    for (int k = 0; k < 1 + round % 4; ++k) bad[rng() % bad.size()] = static_cast<std::byte>(rng() % 256);
    const std::string e = error_of(bad);
    CHECK((e.empty() || (e.starts_with("t.pb: pprof: ") && e.find('\n') == std::string::npos)));
  }
}

TEST_CASE("pprof is told from text by its first bytes") {
  CHECK(looks_like_pprof(bytes_of(example())));
  const std::string collapsed = "\na;b 1\n";
  CHECK_FALSE(looks_like_pprof(std::as_bytes(std::span(collapsed.data(), collapsed.size()))));
}

TEST_CASE("fuzz regressions: every kept input survives write, read, write byte for byte") {
  // Inputs fuzz_pprof_reader found (tests/fuzz/regressions): pprof_function_order.pb, methods were
  // interned in hash-map order; pprof_empty.pb (0 bytes), the tree's metric was named "" and came
  // back as "value 1".
  std::size_t inputs = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(BN_SOURCE_DIR) + "/tests/fuzz/regressions")) {
    if (entry.path().extension() != ".pb") continue;
    ++inputs;
    CAPTURE(entry.path().filename().string());
    std::ifstream in(entry.path(), std::ios::binary);
    REQUIRE(in);
    const std::string input(std::istreambuf_iterator<char>(in), {});
    const auto tree = read_pprof_bytes(std::as_bytes(std::span(input.data(), input.size())), "regression");
    std::ostringstream first;
    write_pprof(tree, first);
    const std::string text = first.str();
    const auto back = read_pprof_bytes(std::as_bytes(std::span(text.data(), text.size())), "round trip");
    CHECK(back.metadata().metric == tree.metadata().metric);
    std::ostringstream second;
    write_pprof(back, second);
    CHECK(second.str() == text);
  }
  CHECK(inputs >= 2);
}
