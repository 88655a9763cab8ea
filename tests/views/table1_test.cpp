// Golden tests of seed 000 Table 1 ("Sample hits for thread instance t"), every cell, on
// hand-made records, and of its generalisation to P CPUs (docs/views.md). Thread t is of class
// T with stack T.run;T.work; the threads it competes with are of class U.
#include <doctest/doctest.h>

#include "view_eval.h"

namespace {

using bn::iface::Rational;
using bn::test::Evaluated;
using bn::test::Recording;
using bn::test::RecordingBuilder;
namespace state = bn::test::state;

// One tick: t in `t_state` at nice 0, `higher` runnable U threads at nice -5 and `equal - 1`
// more runnable U threads at nice 0 (so e = equal when t is runnable).
Recording one_tick(std::uint32_t t_state, int higher, int equal) {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(1000);
  b.record(t, "T.run;T.work", t_state, 0);
  for (int i = 0; i < higher; ++i) b.record(b.thread("hi-" + std::to_string(i), "U"), "U.run", state::kRunnable, -5);
  for (int i = 1; i < equal; ++i) b.record(b.thread("eq-" + std::to_string(i), "U"), "U.run", state::kRunnable, 0);
  return b.build();
}

// The five typed times and the "all other" paths of t in one view.
struct Row {
  Rational run, load, prio, monitor, wait, other;
};

Row row(Evaluated& v) {
  const Rational other = v.cum("T.run;T.work");
  CHECK(v.cum("T.run") == other);  // every call path not ending in typed time gets the same hit
  CHECK(v.cum("T.work") == other);
  return {v.cum("T.work;:RUN"),     v.cum("T.work;:LOAD"), v.cum("T.work;:PRIO"),
          v.cum("T.work;:MONITOR"), v.cum("T.work;:WAIT"), other};
}

void check_row(const Row& got, const Row& want) {
  CHECK(got.run == want.run);
  CHECK(got.load == want.load);
  CHECK(got.prio == want.prio);
  CHECK(got.monitor == want.monitor);
  CHECK(got.wait == want.wait);
  CHECK(got.other == want.other);
}

}  // namespace

TEST_CASE("Table 1, Thread View, t runnable with h > 0: 1 on :PRIO, 0 on :RUN and :LOAD, 1 on all other") {
  for (int higher : {1, 2}) {
    Evaluated v(one_tick(state::kRunnable, higher, 3), bn::test::thread_view("T"));
    check_row(row(v), {0, 0, 1, 0, 0, 1});
  }
}

TEST_CASE("Table 1, Thread View, t runnable with h = 0: 1/e on :RUN, (e-1)/e on :LOAD, 1 on all other") {
  for (int e : {1, 2, 3, 7}) {
    Evaluated v(one_tick(state::kRunnable, 0, e), bn::test::thread_view("T"));
    check_row(row(v), {Rational(1, e), Rational(e - 1, e), 0, 0, 0, 1});
  }
}

TEST_CASE("Table 1, Thread View, t not runnable: 1 on the type of its wait, 0 on the runnable types, whatever h") {
  for (int higher : {0, 1}) {
    Evaluated blocked(one_tick(state::kBlocked, higher, 2), bn::test::thread_view("T"));
    check_row(row(blocked), {0, 0, 0, 1, 0, 1});
    Evaluated waiting(one_tick(state::kWaiting, higher, 2), bn::test::thread_view("T"));
    check_row(row(waiting), {0, 0, 0, 0, 1, 1});
  }
}

TEST_CASE("Table 1, Server View: only t runnable with h = 0 gets hits, 1/e on :RUN and on all other") {
  for (int e : {1, 3}) {
    Evaluated v(one_tick(state::kRunnable, 0, e), bn::test::server_view());
    check_row(row(v), {Rational(1, e), 0, 0, 0, 0, Rational(1, e)});
  }
  Evaluated preempted(one_tick(state::kRunnable, 1, 3), bn::test::server_view());
  check_row(row(preempted), {0, 0, 0, 0, 0, 0});
  for (int higher : {0, 1}) {
    Evaluated blocked(one_tick(state::kBlocked, higher, 2), bn::test::server_view());
    check_row(row(blocked), {0, 0, 0, 0, 0, 0});
    Evaluated waiting(one_tick(state::kWaiting, higher, 2), bn::test::server_view());
    check_row(row(waiting), {0, 0, 0, 0, 0, 0});
  }
}

TEST_CASE("the Server View divides by the number of samples, so an idle program's root is below 1") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  const auto u = b.thread("u", "U");
  b.tick(0);
  b.record(t, "T.run;T.work");
  b.record(u, "U.run", state::kWaiting);
  b.tick(10);
  b.record(t, "T.run;T.work", state::kWaiting);
  b.record(u, "U.run", state::kWaiting);
  Evaluated v(b.build(), bn::test::server_view());
  CHECK(v.cum("T.run") == Rational(1, 2));
  CHECK(v.total() == Rational(1, 2));
  CHECK(v.cum("U.run") == 0);
}

TEST_CASE("a Thread View divides by the number of its class's instances, so its root is 1") {
  RecordingBuilder b;
  const auto t1 = b.thread("t1", "T");
  const auto t2 = b.thread("t2", "T");
  const auto u = b.thread("u", "U");
  b.tick(0);
  b.record(t1, "T.run;T.work");
  b.record(t2, "T.run;T.work");
  b.record(u, "U.run", state::kWaiting);
  b.tick(10);
  b.record(t1, "T.run;T.work", state::kWaiting);
  b.record(u, "U.run");
  Evaluated v(b.build(), bn::test::thread_view("T"));
  CHECK(v.total() == 1);
  // Three instances: two sharing the CPU (1/2 :RUN and 1/2 :LOAD each), one waiting.
  CHECK(v.cum("T.work;:RUN") == Rational(1, 3));
  CHECK(v.cum("T.work;:LOAD") == Rational(1, 3));
  CHECK(v.cum(":WAIT") == Rational(1, 3));
  CHECK(v.cum("U.run") == 0);  // U's time is not T's
}

TEST_CASE("on P CPUs t runs with share min(1, max(0, P - h) / e); :PRIO gets 1 when h >= P") {
  struct Case {
    std::uint32_t p;
    int h, e;
    Rational run, load, prio;
  };
  const Case cases[] = {
      {1, 0, 3, Rational(1, 3), Rational(2, 3), 0},  // Table 1
      {1, 1, 3, 0, 0, 1},                            // Table 1
      {2, 0, 3, Rational(2, 3), Rational(1, 3), 0},  //
      {2, 1, 3, Rational(1, 3), Rational(2, 3), 0},  // one CPU left to the level
      {2, 2, 1, 0, 0, 1},                            // higher threads fill both CPUs
      {3, 0, 3, 1, 0, 0},                            // a CPU each
      {3, 1, 4, Rational(1, 2), Rational(1, 2), 0},  //
      {4, 1, 2, 1, 0, 0},                            // more CPUs than threads
  };
  for (const Case& c : cases) {
    CAPTURE(c.p);
    CAPTURE(c.h);
    CAPTURE(c.e);
    const Recording r = one_tick(state::kRunnable, c.h, c.e);
    Evaluated thread(r, bn::test::thread_view("T", bn::test::cpus(c.p)));
    check_row(row(thread), {c.run, c.load, c.prio, 0, 0, 1});
    Evaluated server(r, bn::test::server_view(bn::test::cpus(c.p)));
    check_row(row(server), {c.run, 0, 0, 0, 0, c.run});
  }
}

TEST_CASE("cpus 1 is the paper model") {
  for (int h : {0, 1})
    for (int e : {1, 4}) {
      const Recording r = one_tick(state::kRunnable, h, e);
      Evaluated paper(r, bn::test::thread_view("T"));
      Evaluated one(r, bn::test::thread_view("T", bn::test::cpus(1)));
      const Row a = row(paper), b = row(one);
      check_row(b, a);
      CHECK(paper.view().denominator == one.view().denominator);
    }
}
