// Refinements below typed time (seed 000 sec. 4: ":PRIO or :LOAD tells us the thread classes
// for which the current thread is waiting. :MONITOR can be refined into the classes of threads
// holding the monitor"), and the holder's own stack below its class.
#include <doctest/doctest.h>

#include "bn/views/thread_classes.h"
#include "view_eval.h"

namespace {

using bn::iface::Rational;
using bn::test::Evaluated;
using bn::test::RecordingBuilder;
namespace state = bn::test::state;

}  // namespace

TEST_CASE("below :LOAD each other runnable thread of t's level is credited 1/(e-1) of the load, by class") {
  RecordingBuilder b;
  const auto t1 = b.thread("t1", "T");
  const auto t2 = b.thread("t2", "T");
  const auto u = b.thread("u", "U");
  b.tick(0);
  b.record(t1, "T.run");
  b.record(t2, "T.run");
  b.record(u, "U.run");
  Evaluated v(b.build(), bn::test::thread_view("T"));
  // e = 3 on one CPU: each T instance waits 2/3, half of it behind the other T and half behind U.
  CHECK(v.cum("T.run;:LOAD") == Rational(2, 3));
  CHECK(v.cum(":LOAD;:THREAD T") == Rational(1, 3));
  CHECK(v.cum(":LOAD;:THREAD U") == Rational(1, 3));
  CHECK(v.base(":LOAD") == 0);  // every bit of the load is credited
}

TEST_CASE("below :PRIO the classes above are credited the CPUs they held, divided by P") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  b.tick(0);
  b.record(t, "T.run", state::kRunnable, 0);
  b.record(b.thread("a", "A"), "A.run", state::kRunnable, -10);
  b.record(b.thread("u", "U"), "U.run", state::kRunnable, -5);
  b.record(b.thread("v", "V"), "V.run", state::kRunnable, -5);
  // On 2 CPUs, A takes one; U and V share the other; t (h = 3 >= 2) waits all the time.
  Evaluated two(b.build(), bn::test::thread_view("T", bn::test::cpus(2)));
  CHECK(two.cum("T.run;:PRIO") == 1);
  CHECK(two.cum(":PRIO;:THREAD A") == Rational(1, 2));
  CHECK(two.cum(":PRIO;:THREAD U") == Rational(1, 4));
  CHECK(two.cum(":PRIO;:THREAD V") == Rational(1, 4));
  // On one CPU A holds it alone.
  Evaluated one(b.build(), bn::test::thread_view("T"));
  CHECK(one.cum(":PRIO;:THREAD A") == 1);
  CHECK(one.cum(":PRIO;:THREAD U") == 0);
}

TEST_CASE("below :MONITOR come the holder's class and the holder's own stack at that tick") {
  RecordingBuilder b;
  const auto t = b.thread("sender-1", "Sender");
  const auto p = b.thread("producer", "Producer");
  b.tick(0);
  b.record(t, "Sender.run;Queue.take", state::kBlocked).owner = p;
  b.record(p, "Producer.run;Queue.put;Producer.compose");
  b.tick(10);
  b.record(t, "Sender.run;Queue.take", state::kBlocked).owner = p;
  b.record(p, "Producer.run;Queue.put", state::kWaiting);
  Evaluated v(b.build(), bn::test::thread_view("Sender"));
  CHECK(v.cum("Queue.take;:MONITOR") == 1);
  CHECK(v.cum(":MONITOR;:THREAD Producer") == 1);
  CHECK(v.cum(":THREAD Producer;@Producer.run;@Queue.put") == 1);
  CHECK(v.cum("@Producer.compose") == Rational(1, 2));
  // The holder's frames refine the sender's wait: all of it is the sender's own time in take
  // (docs/views.md, "Base in a view"), none the holder's frames'.
  CHECK(v.base("Queue.take") == 1);
  CHECK(v.base("@Queue.put") == 0);
  // A path through the holder's frames follows the tree's rule (seed 004 sec. 2.2): its cum
  // also counts the cost of its own nodes, here the holder's self time in put.
  CHECK(v.cum("@Queue.put;@Producer.compose") == 1);
  // The holder's frames are not the waiter's: the waiter never ran Producer.run.
  CHECK(v.cum("Producer.run") == 0);
  CHECK(v.cum("Queue.put") == 0);
}

TEST_CASE(
    "a monitor wait without a recorded holder is :MONITOR;:UNKNOWN; a holder absent from the tick leaves its "
    "stack :UNKNOWN") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  const auto p = b.thread("p", "P");
  b.tick(0);
  b.record(t, "T.run", state::kBlocked);  // no owner: the agent was attached
  b.record(p, "P.run");
  b.tick(10);
  b.record(t, "T.run", state::kBlocked).owner = p;  // p has no record at this tick
  Evaluated v(b.build(), bn::test::thread_view("T"));
  CHECK(v.cum(":MONITOR;:UNKNOWN") == Rational(1, 2));
  CHECK(v.cum(":MONITOR;:THREAD P;:UNKNOWN") == Rational(1, 2));
  CHECK(v.header_has("of monitor waits have no recorded holder"));
}

TEST_CASE("the Server View has no waiting time and no refinements: they are 0 there (Table 1)") {
  RecordingBuilder b;
  const auto t = b.thread("t", "T");
  const auto p = b.thread("p", "P");
  b.tick(0);
  b.record(t, "T.run", state::kBlocked).owner = p;
  b.record(p, "P.run");
  b.record(b.thread("q", "P"), "P.run");
  Evaluated v(b.build(), bn::test::server_view());
  CHECK(v.cum(":RUN") == 1);
  CHECK(v.cum("P.run;:RUN") == 1);
  for (const char* absent : {":LOAD", ":PRIO", ":MONITOR", ":WAIT", ":THREAD P", ":UNKNOWN"}) {
    CAPTURE(absent);
    CHECK_FALSE(v.profile().method_summary(absent));
  }
}

TEST_CASE("thread classes by name fold every run of digits, so pool threads form one class") {
  CHECK(bn::views::fold_digits("pool-3-thread-17") == "pool-#-thread-#");
  CHECK(bn::views::fold_digits("worker") == "worker");
  CHECK(bn::views::fold_digits("42") == "#");
  RecordingBuilder b;
  const auto a = b.thread("pool-1-thread-1", "java.lang.Thread");
  const auto c = b.thread("pool-1-thread-12", "java.lang.Thread");
  b.tick(0);
  b.record(a, "Task.run");
  b.record(c, "Task.run", state::kWaiting);
  auto spec = bn::test::thread_view("pool-#-thread-#");
  spec.grouping = bn::views::Grouping::by_name;
  Evaluated v(b.build(), spec);
  CHECK(v.cum("Task.run;:RUN") == Rational(1, 2));
  CHECK(v.cum("Task.run;:WAIT") == Rational(1, 2));
}

TEST_CASE("class names are made usable as node names: ';' would split a path") {
  const bn::calltree::ThreadEntry threads[] = {{0, 1, 0, false, "a;b", "x;y", 0, -1}, {1, 2, 0, false, "", "", 0, -1}};
  const auto by_name = bn::views::group_threads(threads, bn::views::Grouping::by_name);
  CHECK(by_name.names == std::vector<std::string>{"(unnamed)", "a,b"});
  const auto by_class = bn::views::group_threads(threads, bn::views::Grouping::by_class);
  CHECK(by_class.names == std::vector<std::string>{"(unnamed)", "x,y"});
  CHECK(by_class.of_thread == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("by kind, main and the JVM's service threads are classes apart, the program's subclasses by class") {
  const bn::calltree::ThreadEntry threads[] = {
      {0, 1, 0, false, "main", "java.lang.Thread", 0, -1},
      {1, 2, 0, true, "Signal Dispatcher", "java.lang.Thread", 0, -1},
      {2, 3, 0, true, "Common-Cleaner", "jdk.internal.misc.InnocuousThread", 0, -1},
      {3, 4, 0, false, "pool-1-thread-2", "java.lang.Thread", 0, -1},
      {4, 5, 0, false, "sender-1", "mail.Sender", 0, -1},
      {5, 6, 0, false, "sender-2", "mail.Sender", 0, -1},
      {6, 7, 0, true, "C2 CompilerThread0", "[JVM JIT compiler]", 0, -1},
      // A program's own thread named as a JVM's is the program's.
      {7, 8, 0, false, "Finalizer", "mail.Cleaner", 0, -1},
  };
  const auto kinds = bn::views::group_threads(threads, bn::views::Grouping::by_kind);
  CHECK(kinds.names == std::vector<std::string>{"Common-Cleaner", "Signal Dispatcher", "[JVM JIT compiler]",
                                                "mail.Cleaner", "mail.Sender", "main", "pool-#-thread-#"});
  const auto jvm = [&](std::string_view name) { return kinds.jvm_service[*kinds.find(name)]; };
  CHECK(jvm("Signal Dispatcher"));
  CHECK(jvm("Common-Cleaner"));
  CHECK(jvm("[JVM JIT compiler]"));
  CHECK_FALSE(jvm("main"));
  CHECK_FALSE(jvm("pool-#-thread-#"));
  CHECK_FALSE(jvm("mail.Sender"));
  CHECK_FALSE(jvm("mail.Cleaner"));
  // By class, the paper's definition, main and the Signal Dispatcher are one class.
  const auto by_class = bn::views::group_threads(threads, bn::views::Grouping::by_class);
  CHECK(by_class.of_thread[0] == by_class.of_thread[1]);
}
