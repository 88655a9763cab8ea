// Property test of pruning and focus (bn/calltree/tree_filter.h): on random recursive
// trees under random stacks of `exclude` and `focus` filters (plain sequences, gaps, aspects),
// every summary of the filtered tree measures what a deliberately naive recount over the
// measurements that survive says. The recount shares nothing with the backend: each calling
// context is tried against each filter by naive_patterns.h's backtracking, the survivors become
// a new list of stacks, and naive_profile.h evaluates the seed 004 and seed 000 definitions on it.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_filter.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/call_pattern.h"
#include "bn/iface/overlap.h"
#include "naive_patterns.h"
#include "random_patterns.h"
#include "random_stacks.h"

using namespace bn::calltree;
using bn::iface::Amount;
using bn::iface::CallPattern;
using bn::iface::PatternElement;
using bn::iface::ProfileFilter;
using testing::Context;
using testing::NaivePattern;
using testing::NaiveProfile;

namespace {

using Kind = PatternElement::Kind;

std::string joined(const Context& context) {
  std::string out;
  for (const std::string& frame : context) out += (out.empty() ? "" : ";") + frame;
  return out;
}

// The measurements that survive every filter, as stacks: a calling context keeps its cost when
// its stack passes each filter (focus: satisfies it; exclude: does not). Costs of 0 carry
// nothing, so they are not measurements a listing should show.
testing::Stacks naive_survivors(const NaiveProfile& all, const std::vector<ProfileFilter>& filters,
                                const testing::RandomAspects& aspects) {
  testing::Stacks out;
  for (const auto& [context, cost] : all.nodes()) {
    bool passes = cost != 0;
    for (const ProfileFilter& f : filters)
      passes = passes && f.passes(testing::naive_satisfies(testing::naive_of(f.pattern, aspects), context, false));
    if (passes) out.push_back({joined(context), cost});
  }
  return out;
}

std::vector<std::string_view> views_of(const std::vector<std::string>& calls) { return {calls.begin(), calls.end()}; }

void run_case(std::mt19937& rng, bool large) {
  const testing::RandomCase c = testing::random_case(rng, large);
  const testing::RandomAspects aspects(rng, c.alphabet);
  std::vector<ProfileFilter> filters;
  for (int n = std::uniform_int_distribution<int>(1, 3)(rng); n > 0; --n)
    filters.push_back({rng() % 2 ? ProfileFilter::Kind::focus : ProfileFilter::Kind::exclude,
                       testing::random_pattern(rng, c.alphabet, aspects, true)});
  const std::string shown = bn::iface::filters_text(filters);
  CAPTURE(shown);

  const CallTree original = testing::tree_from_stacks(c.stacks);
  const CallTree tree = filtered_tree(original, filters);
  TreeProfile p(tree);
  const NaiveProfile naive(naive_survivors(NaiveProfile(c.stacks), filters, aspects));

  Amount total = 0;
  for (const auto& entry : naive.nodes()) total += entry.second;
  CHECK(p.total() == total);
  // The same nodes: every calling context of a survivor, and nothing else.
  CHECK(tree.node_count() == naive.nodes().size() + 1);

  for (const std::string& m : c.alphabet) {
    CAPTURE(m);
    const std::vector<std::string> calls{m};
    const auto s = p.method_summary(m);
    REQUIRE(s.has_value() == (naive.methods().count(m) > 0));
    if (!s) continue;
    CHECK(p.cum_of(*s) == naive.total_cum({calls}));
    CHECK(p.base_of(*s) == naive.total_base({calls}));
  }
  for (int i = 0; i < 12; ++i) {
    const CallPattern q = testing::random_pattern(rng, c.alphabet, aspects, true);
    const std::string text = q.text();
    CAPTURE(text);
    if (q.is_plain()) {
      std::vector<std::string> calls;
      for (const PatternElement& e : q.elements) calls.push_back(e.name);
      const auto s = p.path_summary(views_of(calls));
      REQUIRE(s.has_value() == !naive.paths({calls}).roots.empty());
      if (!s) continue;
      CHECK(p.cum_of(*s) == naive.total_cum({calls}));
      CHECK(p.base_of(*s) == naive.total_base({calls}));
    } else {
      const NaivePattern n = testing::naive_of(q, aspects);
      const std::set<Context> cum_nodes = testing::naive_pattern_nodes(naive, n, false);
      const auto s = p.pattern_summary(q);
      REQUIRE(s.has_value() == !cum_nodes.empty());
      if (!s) continue;
      CHECK(p.cum_of(*s) == naive.sum(cum_nodes));
      CHECK(p.base_of(*s) == naive.sum(testing::naive_pattern_nodes(naive, n, true)));
    }
  }
}

Cost column_total(const CallTree& tree, std::size_t metric) { return tree.metric_total(metric); }

}  // namespace

TEST_CASE("on random recursive trees, every summary of a filtered tree equals a naive recount of the survivors") {
  std::mt19937 rng(1607);
  for (int i = 0; i < 400; ++i) {
    CAPTURE(i);
    run_case(rng, false);
  }
}

TEST_CASE("on larger random trees, every summary of a filtered tree equals a naive recount of the survivors") {
  std::mt19937 rng(7016);
  for (int i = 0; i < 12; ++i) {
    CAPTURE(i);
    run_case(rng, true);
  }
}

TEST_CASE("figure 2: exclude a;..;d drops the d frames below an a, focus a;c keeps only what is below a;c") {
  const CallTree tree = testing::figure2();
  const auto parse = [](std::string_view text) { return bn::iface::parse_call_pattern(text, nullptr); };
  const std::vector<ProfileFilter> exclude{{ProfileFilter::Kind::exclude, parse("a;..;d")}};
  const CallTree without_d = filtered_tree(tree, exclude);
  CHECK(without_d.total_cost() == 100 - 50);
  REQUIRE(without_d.find_method("d").has_value());  // the name stays in the table, without nodes
  CHECK(without_d.nodes_of(*without_d.find_method("d")).empty());
  // Only a;c and a;c;e satisfy a;c; a stays as their caller, its own cost dropped.
  const std::vector<ProfileFilter> focus{{ProfileFilter::Kind::focus, parse("a;c")}};
  const CallTree below_ac = filtered_tree(tree, focus);
  CHECK(below_ac.total_cost() == 5 + 32);
  CHECK(below_ac.node_count() == 4);  // root, a (cost 0), a;c, a;c;e
  TreeProfile p(below_ac);
  CHECK(p.base_of(*p.method_summary("a")) == 0);
  // Stacked: the order does not matter, the survivors pass both.
  const std::vector<ProfileFilter> both{focus[0], {ProfileFilter::Kind::exclude, parse("e")}};
  CHECK(filtered_tree(tree, both).total_cost() == 5);
  const std::vector<ProfileFilter> swapped{both[1], both[0]};
  CHECK(filtered_tree(tree, swapped).total_cost() == 5);
}

TEST_CASE("every metric of a multi-metric tree is filtered, and a caller of only dropped costs vanishes") {
  TreeBuilder builder;
  builder.declare_extra_metrics({{"calls", "count"}});
  const auto add = [&](std::string_view stack, Cost time, Cost calls) {
    const NodeId node = builder.add_stack(testing::frames_of(builder, stack), time);
    builder.add_metric_cost(1, node, calls);
  };
  add("main;idle;Thread.sleep", 70, 3);
  add("main;work;compute", 25, 100);
  add("main;work", 5, 1);
  Metadata md;
  md.metric = "time";
  md.unit = "ns";
  const CallTree tree = std::move(builder).build(std::move(md));
  const std::vector<ProfileFilter> filters{
      {ProfileFilter::Kind::exclude, bn::iface::parse_call_pattern("Thread.sleep", nullptr)}};
  const CallTree kept = filtered_tree(tree, filters);
  CHECK(column_total(kept, 0) == 30);
  CHECK(column_total(kept, 1) == 101);
  CHECK(kept.metric_spec(1).name == "calls");
  CHECK(kept.nodes_of(*kept.find_method("idle")).empty());
  CHECK(kept.nodes_of(*kept.find_method("Thread.sleep")).empty());
  // Seen under its other metric, the filtered tree is the same filter of that metric.
  CHECK(kept.with_metric(1).total_cost() == 101);
}

TEST_CASE("a sequence the matcher refuses is an error naming it") {
  const CallTree tree = testing::figure2();
  CallPattern two_aspects;
  const auto any = std::make_shared<const bn::base::MethodPattern>("*");
  two_aspects.elements = {{Kind::aspect, "p", any}, {Kind::aspect, "q", any}};
  const std::vector<ProfileFilter> filters{{ProfileFilter::Kind::exclude, two_aspects}};
  CHECK_THROWS_AS(filtered_tree(tree, filters), bn::Error);
}
