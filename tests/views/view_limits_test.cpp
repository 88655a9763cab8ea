// What a view refuses, and what its header says about the model and the recording.
#include <doctest/doctest.h>

#include "bn/views/view_spec.h"
#include "view_eval.h"

namespace {

using bn::test::Evaluated;
using bn::test::RecordingBuilder;
namespace state = bn::test::state;

std::string error_of(const bn::test::Recording& r, const bn::views::ViewSpec& spec) {
  try {
    bn::views::build_view(r.tree, r.samples, spec);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a profile without per-sample records gets one line saying views need a recording made with the agent") {
  RecordingBuilder b;
  b.thread("t", "T");
  const auto r = b.build();
  CHECK(!bn::views::has_records(r.samples));
  CHECK(error_of(r, bn::test::server_view()) ==
        "view server needs per-sample records, which only a recording made with the agent has (`bottlenecks record`)");
}

TEST_CASE("a thread class is named exactly or by a unique prefix; others are refused naming the candidates") {
  RecordingBuilder b;
  const auto t = b.thread("t", "Sender");
  b.tick(0);
  b.record(t, "S.run");
  b.record(b.thread("p", "Producer"), "P.run");
  b.record(b.thread("q", "Prober"), "Q.run");
  CHECK(error_of(b.build(), bn::test::thread_view("Sendr")) ==
        "no thread class 'Sendr' when threads are grouped by class; the classes are Prober, Producer, Sender");
  CHECK(error_of(b.build(), bn::test::thread_view("Pro")) ==
        "thread class 'Pro' is ambiguous when threads are grouped by class; it begins Prober, Producer");
  Evaluated v(b.build(), bn::test::thread_view("Se"));
  CHECK(v.view().spec.thread_class == "Sender");
  CHECK(v.header_has("view: thread Sender (threads grouped by class)"));
}

TEST_CASE("exact costs that would pass 63 bits are refused, naming the denominator and its cause") {
  // Ticks with e = 1..50 runnable threads: lcm(1..50) alone is 72 bits.
  RecordingBuilder b;
  std::vector<std::uint32_t> threads;
  for (int i = 0; i < 50; ++i) threads.push_back(b.thread("w" + std::to_string(i), "W"));
  for (int e = 1; e <= 50; ++e) {
    b.tick(e);
    for (int i = 0; i < e; ++i) b.record(threads[static_cast<std::size_t>(i)], "W.run");
  }
  const std::string error = error_of(b.build(), bn::test::thread_view("W"));
  CHECK(error.find("view thread W under model paper: exact costs need") == 0);
  CHECK(error.find("a common denominator of 72 bits (the lcm of 50 distinct denominators") != std::string::npos);
  CHECK(error.find("`set model measured`") != std::string::npos);
}

TEST_CASE("when every runnable thread has the same nice the header says :PRIO is necessarily empty") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run", state::kRunnable, 0);
  b.record(b.thread("u", "U"), "U.run", state::kRunnable, 0);
  Evaluated same(b.build(), bn::test::server_view());
  CHECK(same.header_has("every runnable thread had nice 0, so :PRIO is empty"));
  b.record(b.thread("v", "U"), "U.run", state::kRunnable, 5);
  Evaluated mixed(b.build(), bn::test::server_view());
  CHECK_FALSE(mixed.header_has(":PRIO is empty"));
}

TEST_CASE("the default model is measured with CPU figures, else cpus N with the recorded count, else paper") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run");
  bn::views::ViewSpec spec = bn::test::server_view();
  spec.model.reset();
  Evaluated paper(b.build(), spec);
  CHECK(paper.view().spec.model == bn::test::kPaper);
  CHECK(paper.header_has("model: paper (the default: the recording has neither CPU figures nor a CPU count)"));
  b.metadata().set_extra("cpus", "4");
  Evaluated four(b.build(), spec);
  CHECK(four.view().spec.model == bn::test::cpus(4));
  CHECK(four.header_has("model: cpus 4 (the default: recorded on 4 CPUs"));
  b.tick(10);
  auto& r = b.record(t, "T.run");
  r.has_cpu = true;
  r.elapsed_ns = 10;
  r.run_ns = 10;
  Evaluated measured(b.build(), spec);
  CHECK(measured.view().spec.model == bn::views::Model{bn::views::Model::Kind::measured, 4});
  CHECK(measured.header_has("model: measured (the default: CPU figures for 50% of runnable records)"));
}

TEST_CASE("model measured is refused for a recording without CPU figures") {
  RecordingBuilder b;
  b.tick(0);
  b.record(b.thread("t", "T"), "T.run");
  CHECK(error_of(b.build(), bn::test::server_view(bn::test::kMeasured)).find("model measured needs CPU figures") == 0);
}

TEST_CASE("invalid records are refused with the tick, the thread and what is wrong") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run");
  b.record(t, "T.run");
  CHECK(error_of(b.build(), bn::test::server_view()) ==
        "invalid sample records: tick 0, thread 't': two records in one tick");
  RecordingBuilder c;
  c.tick(0);
  auto& r = c.record(c.thread("t", "T"), "T.run");
  r.has_cpu = true;
  r.run_ns = std::uint64_t{1} << 63;
  CHECK(error_of(c.build(), bn::test::server_view()) ==
        "invalid sample records: tick 0, thread 't': CPU figures beyond 2^62 ns");
}

TEST_CASE("models, states and groupings parse from what users type, and bad text is named") {
  using bn::views::Model;
  CHECK(bn::views::parse_model("paper") == Model{Model::Kind::paper, 1});
  CHECK(bn::views::parse_model(" cpus 8 ") == Model{Model::Kind::cpus, 8});
  CHECK(bn::views::parse_model("measured").kind == Model::Kind::measured);
  CHECK(bn::views::to_string(Model{Model::Kind::cpus, 8}) == "cpus 8");
  for (const char* bad : {"cpus", "cpus 0", "cpus x", "cpus8", "cpus 99999", "fast"})
    CHECK_THROWS_WITH_AS(bn::views::parse_model(bad), doctest::Contains("expected paper, cpus N"), bn::Error);
  CHECK(bn::views::parse_states("running") == bn::views::States::running);
  CHECK_THROWS_WITH_AS(bn::views::parse_states("idle"), "bad states 'idle': expected running, runnable or all",
                       bn::Error);
  CHECK(bn::views::parse_grouping("name") == bn::views::Grouping::by_name);
  CHECK_THROWS_AS(bn::views::parse_grouping("pool"), bn::Error);
}
