// The probe-cost estimate of call-tree recordings (probe_cost.h): a worked example, the cases
// that have none, and random trees against a naive reading of the definition.

#include "bn/calltree/probe_cost.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_builder.h"

using namespace bn::calltree;

namespace {

struct Call {
  std::vector<std::string> stack;
  Cost time = 0;
  Cost calls = 0;
};

// A call-tree recording's tree: metric 0 time (ns), metric 1 calls.
CallTree recording(const std::vector<Call>& calls, const std::string& picos = "4000",
                   const std::string& time_unit = "ns") {
  TreeBuilder b;
  b.declare_extra_metrics({{"calls", "count"}});
  for (const Call& c : calls) {
    std::vector<MethodId> frames;
    for (const std::string& name : c.stack) frames.push_back(b.intern(name));
    const NodeId node = b.add_stack(frames, c.time);
    b.add_metric_cost(1, node, c.calls);
  }
  Metadata m;
  m.mode = "calltree";
  m.metric = "time";
  m.unit = time_unit;
  if (!picos.empty()) m.set_extra("picos_per_call", picos);
  return std::move(b).build(std::move(m));
}

// The definition read naively: for each node, its calls and those of every node whose parent
// it is, found by a scan of all nodes.
std::vector<Cost> naive_time_less_probes(const CallTree& t, std::int64_t picos) {
  std::vector<Cost> kept(t.node_count());
  for (NodeId n = 0; n < t.node_count(); ++n) {
    __int128 events = t.metric_cost(1, n);
    for (NodeId m = 1; m < t.node_count(); ++m)
      if (t.parent(m) == n) events += t.metric_cost(1, m);
    const double probes_ns = static_cast<double>(events) * static_cast<double>(picos) / 2000.0;
    const auto rounded = static_cast<Cost>(probes_ns + 0.5);
    kept[n] = t.cost(n) <= 0 ? t.cost(n) : std::max<Cost>(t.cost(n) - rounded, 0);
  }
  return kept;
}

}  // namespace

TEST_CASE("each call's probe cost is charged half to the callee and half to the caller") {
  // 4 ns per call: 2 ns at each end. a: 10 calls of its own and 1002 of its children's.
  const CallTree t = recording({{{"a"}, 1000, 10}, {{"a", "b"}, 5000, 1000}, {{"a", "c"}, 10, 2}});
  const auto estimate = estimate_probe_cost(t);
  REQUIRE(estimate);
  CHECK(estimate->picos_per_call == 4000);
  CHECK(estimate->time_less_probes.spec.name == "time-less-probes");
  CHECK(estimate->time_less_probes.spec.unit == "ns");
  // Preorder: root, a, b, c. a's 2024 ns of probes exceed its 1000: it keeps 0, never less.
  CHECK(estimate->time_less_probes.cost == std::vector<Cost>{0, 0, 3000, 6});
  CHECK(estimate->recorded == 6010);
  CHECK(estimate->removed == 1000 + 2000 + 4);

  const CallTree with = t.with_metric(0).with_extra_metric(std::move(estimate->time_less_probes));
  REQUIRE(with.metric_count() == 3);
  const CallTree searched = with.with_metric(2);
  CHECK(searched.metadata().metric == "time-less-probes");
  CHECK(searched.cum_cost(0) == 3006);
  CHECK(searched.metric_total(1) == 6010);  // time, as recorded, follows
}

TEST_CASE("profiles without a calibrated call-tree recording's metrics get no estimate") {
  const std::vector<Call> calls{{{"a"}, 100, 1}};
  CHECK_FALSE(estimate_probe_cost(recording(calls, "")));                 // no picos_per_call
  CHECK_FALSE(estimate_probe_cost(recording(calls, "0")));                // not measured
  CHECK_FALSE(estimate_probe_cost(recording(calls, "12x")));              // not a number
  CHECK_FALSE(estimate_probe_cost(recording(calls, "-5")));               // negative
  CHECK_FALSE(estimate_probe_cost(recording(calls, "4000", "samples")));  // time not in ns
  TreeBuilder b;
  b.add_stack(std::vector{b.intern("a")}, 3);
  Metadata m;
  m.metric = "time";
  m.unit = "ns";
  m.set_extra("picos_per_call", "4000");
  CHECK_FALSE(estimate_probe_cost(std::move(b).build(m)));  // no calls metric
  // A tree that has the derived metric already (a converted file) is not estimated twice.
  CallTree t = recording(calls);
  auto estimate = estimate_probe_cost(t);
  REQUIRE(estimate);
  t = std::move(t).with_extra_metric(std::move(estimate->time_less_probes));
  CHECK_FALSE(estimate_probe_cost(t));
  CHECK(recorded_picos_per_call(t.metadata()) == 4000);
}

TEST_CASE("an extra metric is refused when it does not fit the tree") {
  const std::vector<Call> calls{{{"a"}, 100, 1}, {{"a", "b"}, 5, 1}};
  CHECK_THROWS_WITH_AS(recording(calls).with_extra_metric({{"x", "ns"}, {1, 2}}),
                       doctest::Contains("2 costs for 3 nodes"), bn::Error);
  CHECK_THROWS_WITH_AS(recording(calls).with_extra_metric({{"calls", "count"}, {0, 1, 2}}),
                       doctest::Contains("already has a metric 'calls'"), bn::Error);
  const Cost huge = std::numeric_limits<Cost>::max();
  CHECK_THROWS_AS(recording(calls).with_extra_metric({{"x", "ns"}, {0, huge, huge}}), bn::Error);
}

TEST_CASE("on random recordings the estimate equals the naive definition") {
  std::mt19937_64 random(20261129);
  for (int round = 0; round < 200; ++round) {
    std::vector<Call> calls;
    const int stacks = 1 + static_cast<int>(random() % 30);
    for (int s = 0; s < stacks; ++s) {
      Call c;
      const int depth = 1 + static_cast<int>(random() % 5);
      for (int d = 0; d < depth; ++d) c.stack.push_back(std::string(1, static_cast<char>('a' + random() % 4)));
      c.time = static_cast<Cost>(random() % 100'000);
      c.calls = static_cast<Cost>(random() % (random() % 2 == 0 ? 10 : 100'000));
      calls.push_back(std::move(c));
    }
    const std::int64_t picos = 1 + static_cast<std::int64_t>(random() % 100'000);
    const CallTree t = recording(calls, std::to_string(picos));
    const auto estimate = estimate_probe_cost(t);
    REQUIRE(estimate);
    const std::vector<Cost> expected = naive_time_less_probes(t, picos);
    CHECK(estimate->time_less_probes.cost == expected);
    Cost recorded = 0, kept = 0;
    for (NodeId n = 0; n < t.node_count(); ++n) {
      recorded += t.cost(n);
      kept += expected[n];
      CHECK(expected[n] <= t.cost(n));  // never more than recorded
    }
    CHECK(estimate->recorded == recorded);
    CHECK(estimate->removed == recorded - kept);
  }
}
