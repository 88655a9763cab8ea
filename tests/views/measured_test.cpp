// The measured model (docs/views.md): schedstat nanoseconds instead of Table 1's formula.
#include <doctest/doctest.h>

#include "view_eval.h"

namespace {

using bn::iface::Rational;
using bn::test::Evaluated;
using bn::test::RecordingBuilder;
namespace state = bn::test::state;

RecordingBuilder::Record& split(RecordingBuilder::Record& r, std::uint64_t elapsed, std::uint64_t run,
                                std::uint64_t wait) {
  r.has_cpu = true;
  r.elapsed_ns = elapsed;
  r.run_ns = run;
  r.wait_ns = wait;
  return r;
}

// One of the two threads of `two_runnable_threads`: who it is, and the CPU figures of its second
// record.
struct RunnableThread {
  const char* name;
  const char* thread_class;
  const char* stack;
  std::int32_t nice = 0;
  std::uint64_t run_ns = 0;
  std::uint64_t wait_ns = 0;
};

// Two threads runnable at two ticks `elapsed` ns apart, in the same frame both times; at the
// second tick each record carries its run and run-queue nanoseconds.
bn::test::Recording two_runnable_threads(std::uint64_t elapsed, const RunnableThread& first,
                                         const RunnableThread& second, const char* cpus = nullptr) {
  RecordingBuilder b;
  if (cpus) b.metadata().set_extra("cpus", cpus);
  const auto first_id = b.thread(first.name, first.thread_class);
  const auto second_id = b.thread(second.name, second.thread_class);
  b.tick(0);
  b.record(first_id, first.stack, state::kRunnable, first.nice);
  b.record(second_id, second.stack, state::kRunnable, second.nice);
  b.tick(elapsed);
  split(b.record(first_id, first.stack, state::kRunnable, first.nice), elapsed, first.run_ns, first.wait_ns);
  split(b.record(second_id, second.stack, state::kRunnable, second.nice), elapsed, second.run_ns, second.wait_ns);
  return b.build();
}

// t (class T, nice 0) and u (class U, nice -5), both runnable at two ticks 100 ns apart; at the
// second, t ran `run` and queued `wait` ns, u ran all the time.
bn::test::Recording t_behind_u(std::uint64_t run, std::uint64_t wait, const char* cpus = nullptr) {
  return two_runnable_threads(100, {"t", "T", "T.run", 0, run, wait}, {"u", "U", "U.run", -5, 100, 0}, cpus);
}

}  // namespace

TEST_CASE("measured splits a runnable interval into run, run-queue and the rest, which is :WAIT") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run");  // nothing was measured before the first tick
  b.tick(100);
  split(b.record(t, "T.run"), 100, 60, 30);
  Evaluated v(b.build(), bn::test::thread_view("T", bn::test::kMeasured));
  CHECK(v.total() == 1);
  CHECK(v.cum("T.run;:RUN") == Rational(60, 100));
  // No other thread of the JVM was runnable: who held the CPU is unknown.
  CHECK(v.cum("T.run;:LOAD;:UNKNOWN") == Rational(30, 100));
  CHECK(v.cum("T.run;:WAIT") == Rational(10, 100));
  CHECK(v.view().hit == 0);  // nanoseconds, not sample counts
}

TEST_CASE("measured: run time beyond a record's own interval comes from the waiting records before it, latest first") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run");
  b.tick(100);
  b.record(t, "T.run;T.wait", state::kWaiting);
  b.tick(200);
  b.record(t, "T.run;T.lock", state::kBlocked);
  b.tick(300);
  split(b.record(t, "T.run;T.work"), 300, 250, 0);
  Evaluated v(b.build(), bn::test::thread_view("T", bn::test::kMeasured));
  // 300 ns observed in all; 250 of them on a CPU, placed at the runnable record.
  CHECK(v.cum("T.work;:RUN") == Rational(250, 300));
  CHECK(v.cum("T.lock;:MONITOR") == 0);  // gave up all its 100 ns
  CHECK(v.cum("T.wait;:WAIT") == Rational(50, 300));
  CHECK(v.total() == 1);
}

TEST_CASE("measured: queue time booked for earlier intervals may exceed a record's own; it is counted in addition") {
  // The kernel books run-queue time when the thread gets a CPU, so a reading can carry queue
  // time from before the interval it closes: run + wait > elapsed is real data.
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run");
  b.tick(100);
  split(b.record(t, "T.run"), 100, 70, 50);
  Evaluated v(b.build(), bn::test::thread_view("T", bn::test::kMeasured));
  CHECK(v.cum("T.run;:RUN") == Rational(70, 120));
  CHECK(v.cum(":LOAD") == Rational(50, 120));
  CHECK(v.total() == 1);
}

TEST_CASE("measured: run-queue time is :PRIO when higher-priority threads held every CPU, credited to them") {
  Evaluated v(t_behind_u(10, 90), bn::test::thread_view("T", bn::test::kMeasured));
  CHECK(v.cum("T.run;:RUN") == Rational(1, 10));
  CHECK(v.cum(":PRIO;:THREAD U") == Rational(9, 10));
  CHECK(v.header_has("CPU count was not recorded"));
}

TEST_CASE("measured with a recorded CPU count: queue time behind equal threads is :LOAD while CPUs remain") {
  Evaluated v(t_behind_u(50, 50, "2"), bn::test::thread_view("T", bn::test::kMeasured));
  // h = 1 < 2 CPUs: not preempted; no equal-priority thread competed, so the holder is unknown.
  CHECK(v.cum(":LOAD;:UNKNOWN") == Rational(1, 2));
  CHECK(v.cum(":PRIO") == 0);
}

TEST_CASE("the measured Server View is CPU nanoseconds over the recorded time: busy CPUs on average") {
  Evaluated v(two_runnable_threads(1000, {"t", "T", "T.run", 0, 900, 0}, {"u", "U", "U.run", 0, 700, 300}),
              bn::test::server_view(bn::test::kMeasured));
  CHECK(v.cum("T.run;:RUN") == Rational(9, 10));
  CHECK(v.cum("U.run") == Rational(7, 10));
  CHECK(v.total() == Rational(16, 10));
}

TEST_CASE("a thread in native code is runnable only when its CPU figures show it mostly on a CPU or queued") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.accept", state::kNative);  // no figures: blocked in a system call
  b.tick(100);
  split(b.record(t, "T.inflate", state::kNative), 100, 80, 0);
  b.tick(200);
  split(b.record(t, "T.accept", state::kNative), 100, 1, 0);
  Evaluated v(b.build(), bn::test::thread_view("T"));
  CHECK(v.cum("T.accept;:WAIT") == Rational(2, 3));
  CHECK(v.cum("T.inflate;:RUN") == Rational(1, 3));
}

TEST_CASE("a RUNNABLE thread in Java code whose figures show no CPU or queue time is idle, as JVMTI cannot say") {
  // The Reference Handler waits for references inside the VM, RUNNABLE all the time.
  const auto recording = [] {
    return two_runnable_threads(100, {"t", "T", "T.run", 0, 100, 0}, {"Reference Handler", "R", "R.wait", 0, 0, 0});
  };
  Evaluated v(recording(), bn::test::thread_view("T"));
  // Tick 0 (no figures): both compete, t runs half the time; tick 1: t alone.
  CHECK(v.cum("T.run;:RUN") == Rational(3, 4));
  CHECK(v.cum(":LOAD;:THREAD R") == Rational(1, 4));
  Evaluated r(recording(), bn::test::thread_view("R"));
  CHECK(r.cum("R.wait;:WAIT") == Rational(1, 2));
  CHECK(r.header_has("25% of JVMTI-RUNNABLE records were idle by their CPU figures"));
}

TEST_CASE("the tree view of runnable threads counts one sample per runnable instance, of running threads their share") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  const auto u = b.thread("u", "U");
  b.tick(0);
  b.record(t, "T.run");
  b.record(u, "U.run");
  b.tick(10);
  b.record(t, "T.run", state::kWaiting);
  b.record(u, "U.run");
  bn::views::ViewSpec spec;
  spec.states = bn::views::States::runnable;
  spec.model = bn::test::kPaper;
  Evaluated runnable(b.build(), spec);
  CHECK(runnable.cum("T.run") == 1);
  CHECK(runnable.cum("U.run") == 2);
  CHECK(runnable.profile().metric().is_sample_count);
  spec.states = bn::views::States::running;
  Evaluated running(b.build(), spec);
  CHECK(running.cum("T.run") == Rational(1, 2));
  CHECK(running.cum("U.run") == Rational(3, 2));
  CHECK_FALSE(running.profile().method_summary(":RUN"));
}
