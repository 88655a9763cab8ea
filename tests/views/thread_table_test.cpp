// The `threads` table: per thread class, instances, lifetime and the share of each type of time,
// which must be what that class's Thread View gives its typed time.
#include "bn/views/thread_table.h"

#include <doctest/doctest.h>

#include "view_eval.h"

namespace {

using bn::iface::Rational;
using bn::test::RecordingBuilder;
namespace state = bn::test::state;

bn::test::Recording two_classes() {
  RecordingBuilder b;
  const auto s1 = b.thread("sender-1", "Sender");
  const auto s2 = b.thread("sender-2", "Sender");
  const auto p = b.thread("producer", "Producer");
  b.tick(0);
  b.record(s1, "S.run", state::kBlocked).owner = p;
  b.record(s2, "S.run");
  b.record(p, "P.run");
  b.tick(100);
  b.record(s1, "S.run", state::kWaiting);
  b.record(p, "P.run", state::kRunnable, -5);
  b.tick(300);
  b.record(s1, "S.run");
  return b.build();
}

}  // namespace

TEST_CASE("the thread table lists each class's threads, instances, lifetime and typed time") {
  const bn::test::Recording r = two_classes();
  const auto table = bn::views::thread_table(r.tree, r.samples, bn::views::Grouping::by_class, bn::test::kPaper);
  REQUIRE(table.rows.size() == 2);
  const auto& sender = table.rows[0];  // most instances first
  CHECK(sender.name == "Sender");
  CHECK(sender.threads == 2);
  CHECK(sender.instances == 4);
  CHECK(sender.lifetime_ns == 150);  // sender-1 from 0 to 300, sender-2 seen once
  CHECK(table.rows[1].name == "Producer");
  CHECK(table.rows[1].lifetime_ns == 100);
  CHECK(bn::iface::to_rational(sender.total, table.denominator) == 4);
  CHECK(table.model == bn::test::kPaper);
}

TEST_CASE("each share in the thread table is what the class's Thread View gives that type of time") {
  const bn::test::Recording r = two_classes();
  for (const bn::views::Model& model : {bn::test::kPaper, bn::test::cpus(2)}) {
    const auto table = bn::views::thread_table(r.tree, r.samples, bn::views::Grouping::by_class, model);
    for (const auto& row : table.rows) {
      bn::test::Evaluated v(r, bn::test::thread_view(row.name, model));
      for (const bn::views::TimeType t : bn::views::kAllTimeTypes) {
        CAPTURE(row.name);
        CAPTURE(bn::views::name_of(t));
        const auto n = row.time[static_cast<std::size_t>(t)];
        CHECK(Rational(bn::iface::to_rational(n, table.denominator) / row.instances) ==
              v.cum(std::string(bn::views::name_of(t))));
      }
    }
  }
}

TEST_CASE("the thread table of a profile without records is refused with one line") {
  RecordingBuilder b;
  const auto r = b.build();
  CHECK_THROWS_WITH_AS(bn::views::thread_table(r.tree, r.samples, bn::views::Grouping::by_name, std::nullopt),
                       "thread classes need per-sample records, which only a recording made with the agent has "
                       "(`bottlenecks record`)",
                       bn::Error);
}

TEST_CASE("the thread table lists the program's threads first and the JVM's service threads last") {
  RecordingBuilder b;
  const auto main = b.thread("main", "java.lang.Thread");
  const auto signal = b.thread("Signal Dispatcher", "java.lang.Thread");
  const auto finalizer = b.thread("Finalizer", "java.lang.ref.Finalizer$FinalizerThread");
  for (const std::int64_t t : {0, 100}) {
    b.tick(t);
    b.record(signal, "S.wait", state::kWaiting);
    b.record(finalizer, "F.wait", state::kWaiting);
  }
  b.record(main, "Main.run");
  const bn::test::Recording r = b.build();
  const auto table = bn::views::thread_table(r.tree, r.samples, bn::views::Grouping::by_kind, bn::test::kPaper);
  REQUIRE(table.rows.size() == 3);
  CHECK(table.rows[0].name == "main");
  CHECK_FALSE(table.rows[0].jvm_service);
  CHECK(table.rows[1].name == "Finalizer");  // more instances than main, and still after it
  CHECK(table.rows[1].jvm_service);
  CHECK(table.rows[2].name == "Signal Dispatcher");
  CHECK(table.rows[2].jvm_service);
}
