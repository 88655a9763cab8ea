// Profiles with several metrics: the model's extra cost columns, the MTRC/MCST/MTOT
// chunks, and what the writer and the reader refuse.

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"
#include "profile_chunks.h"
#include "profile_test_util.h"

using namespace bn::calltree;
using bn::calltree::test::add_chunk;
using bn::calltree::test::stream_bytes;
using bn::calltree::test::TempDir;
using Increments = std::vector<std::pair<NodeId, Cost>>;

namespace {

const std::vector<MetricSpec> kTimeAndCalls = {{"calls", "count"}, {"inclusive", "ns"}};

// main (1) -> work (2) -> io (3), main -> io (4): "time" (metric 0), "calls", "inclusive".
void write_three_metrics(ProfileStreamWriter& w) {
  Metadata m;
  m.mode = "calltree";
  m.metric = "time";
  m.unit = "ns";
  w.write_metadata(m);
  w.declare_extra_metrics(kTimeAndCalls);
  const std::vector<std::string_view> names = {"main", "work", "io"};
  w.append_strings(names);
  const std::vector<NodeId> p1 = {0, 1};
  const std::vector<MethodId> m1 = {0, 1};
  w.append_nodes(p1, m1);
  w.add_costs(Increments{{1, 10}, {2, 100}});
  w.add_metric_costs(1, Increments{{1, 1}, {2, 3}});
  // A second flush: new nodes, then increments of every metric, repeats allowed.
  const std::vector<NodeId> p2 = {2, 1};
  const std::vector<MethodId> m2 = {2, 2};
  w.append_nodes(p2, m2);
  w.add_metric_costs(0, Increments{{3, 7}, {4, 2}});
  w.add_metric_costs(1, Increments{{3, 5}, {2, 1}, {4, 1}});
  w.add_metric_costs(2, Increments{{1, 119}, {2, 107}, {3, 7}, {4, 2}});
  w.finish();
}

}  // namespace

TEST_CASE("a profile streamed with extra metrics reads back every metric of every node") {
  const LoadedProfile p = read_profile_bytes(stream_bytes(write_three_metrics), "three");
  const CallTree& t = p.tree;
  REQUIRE(t.node_count() == 5);
  REQUIRE(t.metric_count() == 3);
  CHECK(t.metric_spec(0).name == "time");
  CHECK(t.metric_spec(0).unit == "ns");
  CHECK(t.metric_spec(1).name == "calls");
  CHECK(t.metric_spec(2).unit == "ns");
  CHECK(t.find_metric("inclusive") == std::optional<std::size_t>(2));
  CHECK_FALSE(t.find_metric("samples").has_value());
  // Preorder: root, main, work, io (under work), io (under main).
  const std::vector<Cost> time = {0, 10, 100, 7, 2}, calls = {0, 1, 4, 5, 1}, inclusive = {0, 119, 107, 7, 2};
  for (NodeId n = 0; n < 5; ++n) {
    CHECK(t.metric_cost(0, n) == time[n]);
    CHECK(t.metric_cost(1, n) == calls[n]);
    CHECK(t.metric_cost(2, n) == inclusive[n]);
  }
  CHECK(t.total_cost() == 119);
}

TEST_CASE("with_metric makes a metric the one cost and cum_cost give, keeping the others") {
  const CallTree t = read_profile_bytes(stream_bytes(write_three_metrics), "three").tree;
  const CallTree calls = t.with_metric(1);
  CHECK(calls.metadata().metric == "calls");
  CHECK(calls.metadata().unit == "count");
  CHECK(calls.metadata().mode == "calltree");
  CHECK(calls.total_cost() == 11);
  CHECK(calls.cum_cost(2) == 9);  // work 4 + io 5
  REQUIRE(calls.metric_count() == 3);
  // [calls, time, inclusive]: the chosen one first, the others in their order.
  CHECK(calls.metric_spec(1).name == "time");
  CHECK(calls.metric_spec(2).name == "inclusive");
  for (NodeId n = 0; n < 5; ++n) {
    CHECK(calls.cost(n) == t.metric_cost(1, n));
    CHECK(calls.metric_cost(1, n) == t.cost(n));
    CHECK(calls.metric_cost(2, n) == t.metric_cost(2, n));
  }
  CHECK(t.total_cost() == 119);  // the original is untouched
  CHECK_THROWS_WITH_AS(t.with_metric(3), doctest::Contains("no metric 3"), bn::Error);
}

TEST_CASE("write_profile keeps every metric, and a tree built out of preorder renumbers them all") {
  // Nodes given as root, io (under main), main: parents come first but not in preorder.
  StringTable names;
  names.intern("main");
  names.intern("io");
  NodeTable table{{kNoNode, 0, 0, 1}, {kNoMethod, 0, 1, 1}, {0, 3, 1, 4}};
  // Table order: 0 root, 1 main, 2 io (top level), 3 io under main. Preorder: root, main, io
  // under main, io.
  Metadata md;
  md.metric = "time";
  std::vector<MetricColumn> extra = {{{"calls", "count"}, {0, 30, 10, 40}}};
  const CallTree tree = CallTree::build(std::move(table), std::move(names), md, std::move(extra));
  CHECK(tree.node_name(2) == "io");
  CHECK(tree.parent(2) == 1);
  CHECK(tree.metric_cost(1, 2) == 40);
  CHECK(tree.metric_cost(1, 3) == 10);

  TempDir dir;
  write_profile(tree.with_metric(1), dir.path() / "m.bnp");
  const CallTree back = read_profile(dir.path() / "m.bnp").tree;
  REQUIRE(back.metric_count() == 2);
  CHECK(back.metadata().metric == "calls");
  CHECK(back.metric_spec(1).name == "time");
  for (NodeId n = 0; n < tree.node_count(); ++n) {
    CHECK(back.cost(n) == tree.metric_cost(1, n));
    CHECK(back.metric_cost(1, n) == tree.cost(n));
  }
}

TEST_CASE("a profile without extra metrics has one metric and no new chunks") {
  const auto bytes = stream_bytes([](ProfileStreamWriter& w) {
    w.declare_extra_metrics({});
    w.finish();
  });
  CHECK(bytes == stream_bytes([](ProfileStreamWriter& w) { w.finish(); }));
  CHECK(read_profile_bytes(bytes, "none").tree.metric_count() == 1);
  // Old readers of this project refuse the new chunks instead of dropping metrics silently.
  CHECK(kTagMetrics.critical());
  CHECK(kTagMetricCosts.critical());
  CHECK(kTagMetricTotals.critical());
}

TEST_CASE("the stream writer refuses extra metrics declared late, twice, unnamed or alike, and undeclared ones") {
  stream_bytes([](ProfileStreamWriter& w) {
    const std::vector<MetricSpec> unnamed = {{"", "ns"}}, twice = {{"a", ""}, {"a", ""}};
    CHECK_THROWS_WITH_AS(w.declare_extra_metrics(unnamed), doctest::Contains("metric 1: it has no name"), bn::Error);
    CHECK_THROWS_WITH_AS(w.declare_extra_metrics(twice), doctest::Contains("like metric 1"), bn::Error);
    CHECK_THROWS_WITH_AS(w.add_metric_costs(1, Increments{}), doctest::Contains("no extra metric was declared"),
                         bn::Error);
    const std::vector<MetricSpec> many(kMaxExtraMetrics + 1, MetricSpec{"x", ""});
    CHECK_THROWS_WITH_AS(w.declare_extra_metrics(many), doctest::Contains("at most 64"), bn::Error);
    w.declare_extra_metrics(kTimeAndCalls);
    CHECK_THROWS_WITH_AS(w.declare_extra_metrics(kTimeAndCalls), doctest::Contains("twice"), bn::Error);
    CHECK_THROWS_WITH_AS(w.add_metric_costs(3, Increments{}), doctest::Contains("only metrics 1 to 2"), bn::Error);
    CHECK_THROWS_WITH_AS(w.add_metric_costs(1, Increments{{1, 1}}), doctest::Contains("node 1"), bn::Error);
    w.finish();
  });
  stream_bytes([](ProfileStreamWriter& w) {
    w.add_costs(Increments{{0, 1}});
    CHECK_THROWS_WITH_AS(w.declare_extra_metrics(kTimeAndCalls), doctest::Contains("after a cost chunk"), bn::Error);
  });
}

namespace {

// A header, an MTRC chunk declaring `metrics`, then what `more` adds.
std::vector<std::byte> with_metrics(std::span<const MetricSpec> metrics,
                                    const std::function<void(std::vector<std::byte>&)>& more) {
  auto file = bn::calltree::test::header_bytes();
  ByteSink declared;
  encode_metrics(metrics, declared);
  add_chunk(file, kTagMetrics, declared);
  more(file);
  return file;
}

void add_end(std::vector<std::byte>& file, Cost total = 0) {
  ByteSink end;
  encode_end({0, 0, total}, end);
  add_chunk(file, kTagEnd, end);
}

void add_totals(std::vector<std::byte>& file, std::vector<Cost> totals) {
  ByteSink sink;
  encode_metric_totals(totals, sink);
  add_chunk(file, kTagMetricTotals, sink);
}

void add_metric_costs(std::vector<std::byte>& file, std::uint32_t metric, const Increments& costs) {
  ByteSink sink;
  encode_metric_costs(metric, costs, 1000, sink);
  add_chunk(file, kTagMetricCosts, sink);
}

std::string read_error(const std::vector<std::byte>& file) {
  try {
    read_profile_bytes(file, "bad.bnp");
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("the reader refuses malformed extra metrics with one line naming the chunk") {
  const std::vector<MetricSpec> one = {{"calls", "count"}};
  const auto contains = [](const std::vector<std::byte>& file, const std::string& what) {
    const std::string error = read_error(file);
    INFO(error);
    CHECK(error.starts_with("cannot read profile 'bad.bnp': "));
    CHECK(error.find(what) != std::string::npos);
  };
  contains(with_metrics({},
                        [](auto& f) {
                          add_metric_costs(f, 1, {{0, 1}});
                        }),
           "'MCST' at byte 42, payload byte 0: costs for metric 1, but no MTRC chunk declared extra metrics before it");
  contains(with_metrics(one,
                        [](auto& f) {
                          add_metric_costs(f, 2, {{0, 1}});
                        }),
           "costs for metric 2, but the MTRC chunk declares metrics 1 to 1");
  contains(with_metrics(one,
                        [](auto& f) {
                          add_metric_costs(f, 1, {{1, 1}});
                        }),
           "names a node outside the 1 nodes read so far");
  contains(with_metrics(one,
                        [](auto& f) {
                          add_metric_costs(f, 1, {{0, 4}});
                          add_totals(f, {5});
                          add_end(f);
                        }),
           "says the total of metric 1 ('calls') is 5, but its costs add up to 4");
  contains(with_metrics(one, [](auto& f) { add_end(f); }), "has no MTOT chunk");
  contains(with_metrics(one,
                        [](auto& f) {
                          add_totals(f, {0});
                          add_metric_costs(f, 1, {{0, 1}});
                        }),
           "metric costs after the MTOT chunk");
  contains(with_metrics(one, [&](auto& f) { add_chunk(f, kTagMetrics, ByteSink{}); }), "a second MTRC chunk");
  const std::vector<MetricSpec> alike = {{"calls", ""}, {"calls", ""}};
  contains(with_metrics(alike, [](auto&) {}), "metric 2 is called 'calls' like metric 1");
  const std::vector<MetricSpec> many(kMaxExtraMetrics + 1, MetricSpec{"x", ""});
  contains(with_metrics(many, [](auto&) {}), "65 extra metrics, more than the 64 supported");
  // Named like metric 0 (META's metric): CallTree::build refuses it.
  auto named_like_zero = bn::calltree::test::header_bytes();
  {
    Metadata m;
    m.metric = "calls";
    ByteSink meta;
    encode_meta(m, meta);
    add_chunk(named_like_zero, kTagMeta, meta);
    ByteSink declared;
    encode_metrics(one, declared);
    add_chunk(named_like_zero, kTagMetrics, declared);
    add_totals(named_like_zero, {0});
    add_end(named_like_zero);
  }
  contains(named_like_zero, "metric 1 is called 'calls' like metric 0");
}
