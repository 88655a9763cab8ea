// End-to-end: mode=calltree on a real JVM. tests/agent/java/Counted.java
// makes calls whose numbers are known by construction; the recorded tree must hold exactly
// those numbers, per calling context, and its times must add up.

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_harness.h"
#include "calltree_profile.h"

namespace ct = bn::calltree;
using bn::test::child_named_like;
using bn::test::JavaRunOptions;
using bn::test::node_at;
using bn::test::read_calls;

namespace {

// Counted.java's constants.
constexpr ct::Cost kLoop = 1000, kFibCalls = 1973, kParityCalls = 5, kPairs = 7, kThrows = 50, kThreads = 4,
                   kPerThread = 300, kLambdas = 200, kObjects = 70, kSleeps = 5, kSleepNs = 20'000'000,
                   kRotations = 100, kBrief = 20;

struct Recording {
  bn::test::JavaRun run;
  ct::LoadedProfile time;   // metric 0: exclusive ns
  ct::LoadedProfile calls;  // the same file with its metric "calls" as metric 0
};

Recording record_counted(const std::string& options) {
  const auto dir = bn::test::work_dir("Counted-" + std::to_string(getpid()) + "-" +
                                      std::to_string(std::hash<std::string>{}(options)));
  const auto file = dir / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Counted";
  o.agent_options = "mode=calltree,strict,file=" + file.string() + options;
  bn::test::JavaRun run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);
  return Recording{std::move(run), ct::read_profile(file), read_calls(file)};
}

// Calls recorded at a path (0 if the path is not in the tree).
ct::Cost calls_at(const Recording& r, std::initializer_list<std::string_view> path) {
  const auto node = node_at(r.calls.tree, path);
  return node ? r.calls.tree.cost(*node) : 0;
}

// Calls of `method` in every calling context.
ct::Cost calls_of(const Recording& r, std::string_view method) {
  const auto m = r.calls.tree.find_method(method);
  ct::Cost calls = 0;
  if (m)
    for (const ct::NodeId n : r.calls.tree.nodes_of(*m)) calls += r.calls.tree.cost(n);
  return calls;
}

std::size_t child_count(const ct::CallTree& tree, std::initializer_list<std::string_view> path) {
  const auto node = node_at(tree, path);
  std::size_t n = 0;
  if (node)
    for ([[maybe_unused]] const ct::NodeId child : tree.children(*node)) ++n;
  return n;
}

// Every count Counted.java guarantees, whatever else is instrumented around it.
void check_counts(const Recording& r) {
  const std::string_view main = "Counted.main";
  CHECK(calls_at(r, {main}) == 1);
  CHECK(calls_at(r, {main, "Counted.loop"}) == 1);
  CHECK(calls_at(r, {main, "Counted.loop", "Counted.leaf"}) == kLoop);

  // Recursion: one node per depth, the calls of all of them 2 fib(16) - 1.
  CHECK(calls_of(r, "Counted.fib") == kFibCalls);
  CHECK(calls_at(r, {main, "Counted.fib"}) == 1);
  CHECK(calls_at(r, {main, "Counted.fib", "Counted.fib"}) == 2);
  CHECK(calls_of(r, "Counted.isOdd") == kParityCalls);
  CHECK(calls_of(r, "Counted.isEven") == kParityCalls);
  CHECK(calls_at(r, {main, "Counted.isOdd", "Counted.isEven", "Counted.isOdd"}) == 1);
  CHECK(calls_of(r, "Counted$Pair.size") == kPairs);
  CHECK(calls_at(r, {main, "Counted$Pair.size", "Counted$Pair.size", "Counted$Pair.size"}) == 4);

  // The exception leaves thrower, rethrower (which caught and rethrew it) and passer; catcher
  // keeps it, and its next call is its own child.
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.passer"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.passer", "Counted.rethrower"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.passer", "Counted.rethrower",
                     "Counted.thrower"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.afterCatch"}) == kThrows);
  CHECK(child_count(r.calls.tree, {main, "Counted.exceptions", "Counted.catcher", "Counted.passer"}) == 1);
  CHECK(calls_at(r, {main, "Counted.shielded", "Counted$Quiet.swallow", "Counted.thrower"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.shielded", "Counted.afterCatch"}) == kThrows);

  // Twelve callees in turn from one node, more than it keeps at hand and than its table of
  // children holds before it grows: d0 and d11 called in both loops, the others in the first.
  const std::string_view callees[] = {"Counted.d0", "Counted.d1", "Counted.d2",  "Counted.d3",
                                      "Counted.d4", "Counted.d5", "Counted.d6",  "Counted.d7",
                                      "Counted.d8", "Counted.d9", "Counted.d10", "Counted.d11"};
  for (std::size_t k = 0; k < std::size(callees); ++k) {
    INFO(callees[k]);
    const ct::Cost expected = k == 0 || k == 11 ? 2 * kRotations : kRotations;
    CHECK(calls_at(r, {main, "Counted.dispatch", callees[k]}) == expected);
    CHECK(calls_at(r, {main, "Counted.dispatch", callees[k], "Counted.leaf"}) == expected);
  }
  CHECK(child_count(r.calls.tree, {main, "Counted.dispatch"}) == 12);

  // Threads that ended: their trees merged, rooted at the lambda their Runnable runs.
  const std::string thread_root = child_named_like(r.calls.tree, {}, "Counted.lambda$threads$");
  REQUIRE_FALSE(thread_root.empty());
  CHECK(calls_at(r, {thread_root}) == kThreads);
  CHECK(calls_at(r, {thread_root, "Counted.worker"}) == kThreads);
  CHECK(calls_at(r, {thread_root, "Counted.worker", "Counted.leaf"}) == kThreads * kPerThread);

  // Threads that ended one after the other, one whose getId() the probes must not call, and one
  // whose id is beyond the probes' slots.
  CHECK(calls_at(r, {"Counted$Brief.run"}) == kBrief);
  CHECK(calls_at(r, {"Counted$Brief.run", "Counted.worker", "Counted.leaf"}) == kBrief * kPerThread);
  CHECK(calls_at(r, {"Counted$Liar.run", "Counted.worker", "Counted.leaf"}) == kPerThread);
  CHECK(calls_at(r, {"Counted$Far.run"}) == 1);
  CHECK(calls_at(r, {"Counted$Far.run", "Counted.worker", "Counted.leaf"}) == kPerThread);

  const std::string lambda = child_named_like(r.calls.tree, {main, "Counted.lambdas"}, "Counted.lambda$lambdas$");
  REQUIRE_FALSE(lambda.empty());
  CHECK(calls_at(r, {main, "Counted.lambdas", lambda}) == kLambdas);
  CHECK(calls_at(r, {main, "Counted.lambdas", lambda, "Counted.leaf"}) == kLambdas);

  CHECK(calls_at(r, {main, "Counted$Holder.<clinit>"}) == 1);
  CHECK(calls_at(r, {main, "Counted$Holder.<clinit>", "Counted$Holder.compute", "Counted.leaf"}) == 1);

  // Constructors: argument() runs before super() and is the constructor's; a constructor that
  // throws there is popped, and the catching method's next call is its own.
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Derived.<init>"}) == 2 * kObjects);
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Derived.<init>", "Counted$Derived.argument"}) == 2 * kObjects);
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Derived.<init>", "Counted$Base.<init>"}) == kObjects);
  // A super constructor that throws: Lenient.<init> sees no exit, objects' handler closes it.
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Lenient.<init>"}) == kObjects);
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Lenient.<init>", "Counted$Strict.<init>"}) == kObjects);
  CHECK(child_count(r.calls.tree, {main, "Counted.objects", "Counted$Lenient.<init>"}) == 1);
  CHECK(calls_at(r, {main, "Counted.objects", "Counted.afterCatch"}) == 2 * kObjects);

  // The bridge compareTo(Object) and the method it calls share a name: two nested nodes.
  CHECK(calls_at(r, {main, "Counted.bridges", "Counted$Box.<init>"}) == kObjects + 1);
  CHECK(calls_at(r, {main, "Counted.bridges", "Counted$Box.compareTo"}) == kObjects);
  CHECK(calls_at(r, {main, "Counted.bridges", "Counted$Box.compareTo", "Counted$Box.compareTo"}) == kObjects);
}

// Exclusive times add up to inclusive ones per node: the exclusive times of `top`'s subtree,
// added here one by one, are its inclusive time; none is negative.
void check_exclusive_sums(const ct::CallTree& t, ct::NodeId top) {
  ct::Cost subtree = 0;
  bool negative = false;
  for (ct::NodeId n = top; n < t.subtree_end(top); ++n) {
    subtree += t.cost(n);
    negative |= t.cost(n) < 0;
  }
  CHECK(subtree == t.cum_cost(top));
  CHECK_FALSE(negative);
}

// clock=exact: inclusive time (the cum of exclusive times) of the sleeping section lies between
// the time slept and the wall time the program measured around it; main's covers the time main
// measured from its first line to its last (both printed on stdout).
void check_times(const Recording& r) {
  const ct::CallTree& t = r.time.tree;
  const auto main = node_at(t, {"Counted.main"});
  const auto sleeper = node_at(t, {"Counted.main", "Counted.sleeper"});
  REQUIRE(main);
  REQUIRE(sleeper);
  std::istringstream printed(r.run.out);
  ct::Cost sleep_window = 0, main_window = 0;
  printed >> sleep_window >> main_window;
  CHECK(t.cum_cost(*sleeper) >= kSleeps * kSleepNs);
  CHECK(t.cum_cost(*sleeper) <= sleep_window);
  CHECK(t.cum_cost(*main) >= main_window);
  check_exclusive_sums(t, *main);
}

// What every trivial rule keeps: leaf (a getter's shape) gets no probes and its time is loop's,
// the profile's metadata names the rule and counts the methods skipped, and exclusive times
// still add up to inclusive ones.
void check_trivial_rule(const Recording& r, std::string_view rule) {
  const std::string_view main = "Counted.main";
  CHECK(calls_at(r, {main, "Counted.loop"}) == 1);
  CHECK_FALSE(node_at(r.calls.tree, {main, "Counted.loop", "Counted.leaf"}));
  CHECK(r.calls.tree.find_method("Counted.leaf") == std::nullopt);
  const auto trivial = r.time.tree.metadata().find_extra("trivial");
  REQUIRE(trivial);
  CHECK(trivial->starts_with(rule));
  CHECK(std::stoll(std::string(*r.time.tree.metadata().find_extra("trivial_methods_skipped"))) > 0);
  const auto top = node_at(r.time.tree, {main});
  REQUIRE(top);
  check_exclusive_sums(r.time.tree, *top);
}

}  // namespace

TEST_CASE("mode=calltree records the exact calls of every calling context, on every thread") {
  const Recording r = record_counted(",include=Counted*,trivial=count,clock=exact");
  check_counts(r);
  check_times(r);
  // Only the program's classes were instrumented: the tree holds nothing else.
  for (ct::MethodId m = 0; m < r.calls.tree.method_count(); ++m) {
    INFO(r.calls.tree.method_name(m));
    CHECK(r.calls.tree.method_name(m).starts_with("Counted"));
  }
  const auto& meta = r.time.tree.metadata();
  CHECK(meta.mode == "calltree");
  CHECK(meta.metric == "time");
  CHECK(meta.unit == "ns");
  CHECK(r.calls.tree.metadata().metric == "calls");
  CHECK(meta.find_extra("trivial") == "count");
  CHECK(meta.find_extra("clock").value_or("").starts_with("exact"));
  CHECK(r.time.tree.metric_count() == 2);
  CHECK(r.time.tree.metric_spec(1).unit == "count");
}

TEST_CASE("a call-tree recording started with -agentpath leaves no warning of the JVM's on standard error") {
  // The runtime jar goes on the boot class path at load, as -Xbootclasspath/a: would; appended
  // later, HotSpot warns that class data sharing now covers only the boot loader's classes.
  const Recording r = record_counted(",include=Counted*");
  CHECK(r.run.err.find("Sharing is only supported") == std::string::npos);
  CHECK(r.run.err.find("VM warning") == std::string::npos);  // "OpenJDK 64-Bit Server VM warning: ..."
}

TEST_CASE("clock=tick, the default, keeps every call count exact; its times add up and lie within the run") {
  const auto started = std::chrono::steady_clock::now();
  const Recording r = record_counted(",include=Counted*,trivial=count");
  const auto run_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count();
  check_counts(r);
  CHECK(r.time.tree.metadata().find_extra("clock").value_or("").starts_with("tick"));
  // Every time charged on main's thread is the difference of two clock ticks taken while the
  // JVM ran: no more than the run, whatever the ticks' lateness on a loaded machine.
  const auto main = node_at(r.time.tree, {"Counted.main"});
  REQUIRE(main);
  check_exclusive_sums(r.time.tree, *main);
  CHECK(r.time.tree.cum_cost(*main) <= run_ns);
}

TEST_CASE("a call tree of 2^18 contexts grown on each of two threads arrives whole, every thread's calls merged") {
  const auto dir = bn::test::work_dir("Branching-" + std::to_string(getpid()));
  const auto file = dir / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Branching";
  o.agent_options = "mode=calltree,strict,file=" + file.string();
  const bn::test::JavaRun run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);
  const ct::LoadedProfile p = read_calls(file);
  const ct::CallTree& tree = p.tree;
  // Under the threads' lambda, a binary tree of 2^18 - 1 contexts (Branching.DEPTH = 17), each
  // called once by each of the two threads.
  const std::string lambda = child_named_like(tree, {}, "Branching.lambda$main$");
  REQUIRE_FALSE(lambda.empty());
  const auto top = node_at(tree, {lambda});
  REQUIRE(top);
  CHECK(tree.subtree_end(*top) - *top == (ct::NodeId{1} << 18));
  std::size_t twice = 0, leaves = 0;
  for (ct::NodeId n = *top; n < tree.subtree_end(*top); ++n) {
    twice += tree.cost(n) == 2 ? 1 : 0;
    leaves += tree.subtree_end(n) == n + 1 ? 1 : 0;
  }
  CHECK(twice == std::size_t{1} << 18);
  CHECK(leaves == std::size_t{1} << 17);
}

TEST_CASE("mode=calltree with include=* (the JDK too) keeps the program's counts exact") {
  const Recording r = record_counted(",include=*,trivial=count,clock=exact");
  check_counts(r);
  check_times(r);
  // JDK classes were instrumented (java.util's, called by the program, the launcher and the JDK
  // itself), but nothing of the never-touched set.
  bool jdk = false;
  for (ct::MethodId m = 0; m < r.calls.tree.method_count(); ++m) {
    const std::string_view name = r.calls.tree.method_name(m);
    jdk |= name.starts_with("java.util.");
    CHECK_FALSE(name.starts_with("java.lang."));
    CHECK_FALSE(name.starts_with("bottlenecks."));
  }
  CHECK(jdk);
}

TEST_CASE("by default the application's classes are instrumented, the JDK's runtime is not") {
  const Recording r = record_counted("");
  CHECK(calls_at(r, {"Counted.main", "Counted.exceptions", "Counted.catcher"}) == kThrows);
  for (ct::MethodId m = 0; m < r.calls.tree.method_count(); ++m) {
    INFO(r.calls.tree.method_name(m));
    CHECK_FALSE(r.calls.tree.method_name(m).starts_with("java."));
  }
}

TEST_CASE("trivial=skip leaves tiny methods without probes: their time is their caller's, and the profile says so") {
  const Recording r = record_counted(",include=Counted*");
  check_trivial_rule(r, "skip");
  const std::string_view main = "Counted.main";
  // Not trivial: they call something, so the tree keeps every frame that calls (the default
  // stays exact: wrappers are left out only with trivial=wrappers).
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.passer", "Counted.rethrower"}) == kThrows);
  CHECK(child_count(r.calls.tree, {main, "Counted.dispatch"}) == 12);
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Derived.<init>", "Counted$Derived.argument"}) == 2 * kObjects);
}

TEST_CASE(
    "trivial=wrappers leaves tiny methods that call only their package's without probes too: their time is their "
    "caller's, what they call is recorded under their caller, and the profile says so") {
  const Recording r = record_counted(",include=Counted*,trivial=wrappers");
  check_trivial_rule(r, "wrappers");
  const std::string_view main = "Counted.main";
  // Wrappers of the class's own methods (passer, d0..d7, a constructor computing super()'s
  // argument) are trivial: what they call is their caller's child.
  CHECK(r.calls.tree.find_method("Counted.passer") == std::nullopt);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.rethrower"}) == kThrows);
  CHECK(child_count(r.calls.tree, {main, "Counted.dispatch"}) == 0);
  CHECK(r.calls.tree.find_method("Counted$Derived.<init>") == std::nullopt);
  CHECK(calls_at(r, {main, "Counted.objects", "Counted$Derived.argument"}) == 2 * kObjects);
  // Not trivial: a handler (catcher), a call into the JDK (thrower's exception, sleeper's
  // sleep), recursion (fib calls itself; isOdd and isEven call each other; Pair.size calls
  // Node.size). Leaf.size is trivial.
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher"}) == kThrows);
  CHECK(calls_at(r, {main, "Counted.exceptions", "Counted.catcher", "Counted.rethrower", "Counted.thrower"}) ==
        kThrows);
  CHECK(calls_at(r, {main, "Counted.sleeper"}) == kSleeps);
  CHECK(calls_of(r, "Counted.fib") == kFibCalls);
  CHECK(calls_of(r, "Counted.isOdd") == kParityCalls);
  CHECK(calls_of(r, "Counted.isEven") == kParityCalls);
  CHECK(calls_of(r, "Counted$Pair.size") == kPairs);
  CHECK(r.calls.tree.find_method("Counted$Leaf.size") == std::nullopt);
}

TEST_CASE("exclude= keeps classes out; their time is their callers'") {
  const Recording r =
      record_counted(",include=Counted*,exclude=Counted$Box:Counted$Holder:Counted$Quiet,trivial=count");
  CHECK(r.calls.tree.find_method("Counted$Box.compareTo") == std::nullopt);
  CHECK(r.calls.tree.find_method("Counted$Holder.compute") == std::nullopt);
  CHECK(calls_at(r, {"Counted.main", "Counted.bridges"}) == 1);
  CHECK(calls_at(r, {"Counted.main", "Counted.loop", "Counted.leaf"}) == kLoop);
  // An excluded frame catches what thrower throws: thrower's own catch-all probe pops it, so the
  // next call is shielded's child, not thrower's.
  CHECK(r.calls.tree.find_method("Counted$Quiet.swallow") == std::nullopt);
  CHECK(calls_at(r, {"Counted.main", "Counted.shielded", "Counted.thrower"}) == kThrows);
  CHECK(calls_at(r, {"Counted.main", "Counted.shielded", "Counted.afterCatch"}) == kThrows);
  CHECK(child_count(r.calls.tree, {"Counted.main", "Counted.shielded"}) == 2);
  CHECK(child_count(r.calls.tree, {"Counted.main", "Counted.shielded", "Counted.thrower"}) == 0);
}

TEST_CASE("methods whose locals javac never lays out so are instrumented too, and still run right") {
  const auto file = bn::test::work_dir("OddLocals-" + std::to_string(getpid())) / "run.bnp";
  JavaRunOptions o;
  o.main_class = "OddLocals";
  o.agent_options = "mode=calltree,strict,include=OddLocals*:Reuse:Chop,trivial=count,file=" + file.string();
  const bn::test::JavaRun run = bn::test::run_java(o);
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out == "10 20\n");  // f returns 1 and g 2, ten times each
  Recording r{run, ct::read_profile(file), read_calls(file)};
  CHECK(calls_at(r, {"OddLocals.main", "Reuse.f"}) == 10);
  CHECK(calls_at(r, {"OddLocals.main", "Chop.g"}) == 10);
  CHECK(r.time.tree.metadata().find_extra("refused_classes") == "0");
}

namespace {

// Runs Hot for `ms` (after sleeping `sleep_ms`, if given) under the agent with `options`;
// returns the hot calls it printed.
ct::Cost run_detailed(const std::string& options, const std::string& ms, const std::string& sleep_ms = {}) {
  JavaRunOptions o;
  o.main_class = "Hot";
  o.args = {ms};
  if (!sleep_ms.empty()) o.args.push_back(sleep_ms);
  o.agent_options = options;
  const auto r = bn::test::run_java(o);
  INFO("stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.exit_code == 0);
  return std::stoll(r.out);
}

}  // namespace

TEST_CASE("detailing: a label file the REPL saved from a sampled profile instruments exactly its methods") {
  const auto dir = bn::test::work_dir("Detailed-" + std::to_string(getpid()));
  const auto sampled = dir / "sampled.bnp", labels = dir / "hot.labels", detailed = dir / "detailed.bnp";
  run_detailed("file=" + sampled.string() + ",interval=10ms,quiet", "1500");
  const auto repl = bn::test::run_command(
      {bn::test::kCli, "repl", sampled.string(), "-c", "path Hot.main;Hot.hot; label hot; save " + labels.string()},
      std::chrono::seconds(60));
  INFO("repl: " << repl.out << repl.err);
  REQUIRE(repl.exit_code == 0);

  const ct::Cost hot_calls = run_detailed(
      "mode=calltree,strict,trivial=count,file=" + detailed.string() + ",methods=" + labels.string(), "800");
  const auto calls = read_calls(detailed);
  const ct::CallTree& t = calls.tree;
  std::vector<std::string> methods;
  for (ct::MethodId m = 0; m < t.method_count(); ++m) methods.emplace_back(t.method_name(m));
  std::sort(methods.begin(), methods.end());
  CHECK(methods == std::vector<std::string>{"Hot.hot", "Hot.main"});
  const auto hot = node_at(t, {"Hot.main", "Hot.hot"});
  REQUIRE(hot);
  CHECK(t.cost(*hot) == hot_calls);
  CHECK(calls.tree.metadata().find_extra("methods_named") == "2");
  CHECK(calls.tree.metadata().find_extra("methods_file") == labels.string());
}

TEST_CASE(
    "detailing with duration= counts from the first instrumented call, then restores the original classes: the "
    "calls after it are not counted") {
  const auto dir = bn::test::work_dir("Restored-" + std::to_string(getpid()));
  const auto labels = dir / "hot.labels", detailed = dir / "detailed.bnp";
  std::ofstream(labels) << "# bottlenecks labels v1\nlabel hot\n  Hot.hot\n";
  // Hot sleeps longer than the duration before its first call of Hot.hot, the only method
  // instrumented, then calls it for three seconds.
  const ct::Cost hot_calls = run_detailed(
      "mode=calltree,strict,trivial=count,duration=1s,file=" + detailed.string() + ",methods=" + labels.string(),
      "3000", "1500");
  const auto calls = read_calls(detailed);
  const auto hot = node_at(calls.tree, {"Hot.hot"});
  REQUIRE(hot);
  // Counted for about the first second of three after the sleep (however slowly the JVM
  // started), then the program ran on with its original classes.
  CHECK(calls.tree.cost(*hot) > 0);
  CHECK(calls.tree.cost(*hot) < hot_calls);
  const auto restored = calls.tree.metadata().find_extra("restored");
  REQUIRE(restored);
  CHECK(restored->starts_with("yes"));
}

TEST_CASE("detailing with maxoverhead= ends once the probes' estimated cost passes the bound") {
  const auto dir = bn::test::work_dir("Bounded-" + std::to_string(getpid()));
  const auto labels = dir / "hot.labels", detailed = dir / "detailed.bnp";
  std::ofstream(labels) << "# bottlenecks labels v1\nlabel hot\n  Hot.main\n  Hot.hot\n";
  // Thousands of calls a second at tens of nanoseconds each: far above 0.0001% of one CPU.
  const ct::Cost hot_calls =
      run_detailed("mode=calltree,strict,trivial=count,flush=100ms,maxoverhead=0.0001%,file=" + detailed.string() +
                       ",methods=" + labels.string(),
                   "3000");
  const auto calls = read_calls(detailed);
  const auto& meta = calls.tree.metadata();
  CHECK(meta.find_extra("stopped_by") == "maxoverhead");
  CHECK(std::stoll(std::string(*meta.find_extra("picos_per_call"))) > 0);
  const auto restored = meta.find_extra("restored");
  REQUIRE(restored);
  CHECK(restored->starts_with("yes"));
  const auto hot = node_at(calls.tree, {"Hot.main", "Hot.hot"});
  REQUIRE(hot);
  CHECK(calls.tree.cost(*hot) < hot_calls);
}

TEST_CASE("bottlenecks record --mode calltree passes the call-tree options to the agent") {
  const auto file = bn::test::work_dir("record-calltree-" + std::to_string(getpid())) / "run.bnp";
  const auto classes = bn::test::compiled("Counted");
  const std::vector<std::string> options = {"--mode", "calltree", "--include", "Counted*",      "--trivial",
                                            "count",  "--clock",  "exact",     "--tree-memory", "64m"};
  std::vector<std::string> command = {bn::test::kCli, "record", "-o", file.string()};
  command.insert(command.end(), options.begin(), options.end());
  command.insert(command.end(),
                 {"--agent", BN_AGENT_PATH, "--", bn::test::java_tool("java"), "-cp", classes.string(), "Counted"});
  const auto r = bn::test::run_command(command, std::chrono::seconds(120));
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const auto calls = read_calls(file);
  const auto leaf = node_at(calls.tree, {"Counted.main", "Counted.loop", "Counted.leaf"});
  REQUIRE(leaf);
  CHECK(calls.tree.cost(*leaf) == kLoop);
  const ct::LoadedProfile time = ct::read_profile(file);
  CHECK(time.tree.metadata().find_extra("include") == "Counted*");
  CHECK(time.tree.metadata().find_extra("clock").value_or("").starts_with("exact"));
  CHECK(time.tree.metadata().find_extra("treememory") == std::to_string(64 << 20));
}

TEST_CASE("a JVM killed mid-run keeps the call tree of every flush before") {
  const auto file = bn::test::work_dir("Killed-" + std::to_string(getpid())) / "run.bnp";
  JavaRunOptions o;
  o.main_class = "Hot";
  o.args = {"60000"};
  o.agent_options = "mode=calltree,strict,trivial=count,flush=100ms,file=" + file.string();
  o.signal = SIGKILL;
  o.signal_after = std::chrono::milliseconds(3000);
  const auto r = bn::test::run_java(o);
  CHECK(r.exit_code == -SIGKILL);
  ct::LoadedProfile p = ct::read_profile(file, ct::LoadOptions{true});
  CHECK(p.unfinished);
  const auto calls = p.tree.find_metric("calls");
  REQUIRE(calls);
  p.tree = std::move(p.tree).with_metric(*calls);
  const auto hot = node_at(p.tree, {"Hot.main", "Hot.hot"});
  REQUIRE(hot);
  CHECK(p.tree.cost(*hot) > 0);
}
