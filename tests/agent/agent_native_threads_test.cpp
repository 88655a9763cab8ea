// End-to-end: the CPU of the JVM's own threads (JIT compilers, GC, VM thread, the agent's sampler)
// is in a sampling recording, under pseudo thread classes "[JVM ...]", so that the profile's CPU
// adds up to the process's. The process's CPU is measured independently: by the program itself
// over main's run (which the recording spans), and by the kernel's account of the child
// (getrusage: its whole life, start-up included). The machine may be loaded: the bounds are
// loose, presence is exact.

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>

#include "agent_harness.h"

namespace ct = bn::calltree;

namespace {

std::int64_t children_cpu_ns() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  const auto ns = [](const timeval& t) {
    return std::int64_t{t.tv_sec} * 1'000'000'000 + std::int64_t{t.tv_usec} * 1000;
  };
  return ns(u.ru_utime) + ns(u.ru_stime);
}

}  // namespace

TEST_CASE("the JIT compiler threads' CPU is recorded, and the profile's CPU is the process's") {
  bn::test::compiled("Jitted");  // javac first: its CPU would count as the program's
  const auto file = bn::test::work_dir("native-threads-" + std::to_string(getpid())) / "run.bnp";
  bn::test::JavaRunOptions o;
  o.main_class = "Jitted";
  o.args = {"2000"};
  o.agent_options = "file=" + file.string() + ",interval=10ms,quiet";
  const std::int64_t before = children_cpu_ns();
  const bn::test::JavaRun r = bn::test::run_java(o);
  const std::int64_t process_ns = children_cpu_ns() - before;
  INFO("stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exit_code == 0);
  std::int64_t main_start_ns = 0, main_end_ns = 0;
  std::istringstream out(r.out);
  std::string word;
  out >> word >> main_start_ns >> main_end_ns;
  REQUIRE(word == "process_cpu_ns");
  const std::int64_t main_ns = main_end_ns - main_start_ns;
  const auto p = bn::test::load(file);

  std::map<std::string, std::int64_t> run_by_class;
  std::int64_t recorded_ns = 0;
  for (const ct::SampleRecord& rec : p.samples.records) {
    if (!rec.has_cpu) continue;
    run_by_class[p.samples.threads[rec.thread].thread_class] += static_cast<std::int64_t>(rec.run_ns);
    recorded_ns += static_cast<std::int64_t>(rec.run_ns);
  }
  std::string listing;
  for (const auto& [c, ns] : run_by_class) listing += c + " " + std::to_string(ns / 1'000'000) + " ms; ";
  INFO("CPU by thread class: " << listing << "recorded " << recorded_ns / 1'000'000 << " ms, process "
                               << process_ns / 1'000'000 << " ms, of which during main " << main_ns / 1'000'000
                               << " ms");
  CHECK(run_by_class["[JVM JIT compiler]"] > 0);
  CHECK(run_by_class["[JVM bottlenecks agent]"] > 0);
  // The recording spans main's run, and less than the process's life (its start before the first
  // tick is not recorded): it holds at least main's run (0.7: the program reads its CPU in 10 ms
  // steps, and a task that ends between ticks takes its last moments along), and nothing twice.
  // The Java threads alone had about half of it.
  CHECK(recorded_ns >= 0.7 * static_cast<double>(main_ns));
  CHECK(recorded_ns <= process_ns + 1'000'000);  // rusage rounds each child's time to 1 us
  // The JVM's threads carry their own frame, never a Java stack.
  int jvm_records = 0, own_frame = 0;
  for (const ct::SampleRecord& rec : p.samples.records) {
    const std::string& thread_class = p.samples.threads[rec.thread].thread_class;
    if (!thread_class.starts_with("[JVM ")) continue;
    ++jvm_records;
    own_frame += p.loaded.tree.node_name(rec.node) == thread_class ? 1 : 0;
  }
  CHECK(jvm_records > 0);
  CHECK(own_frame == jvm_records);
  // Every thread keeps its class to the end, the JVM's included (a thread's last entry wins).
  for (const ct::ThreadEntry& t : p.samples.threads) CHECK_MESSAGE(!t.thread_class.empty(), t.name);
}
