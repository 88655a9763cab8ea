// Property test: the per-method figures (MethodTotals, and TreeProfile's method summaries built
// on them) equal the naive model's however they are reached: which query comes first, one method
// at a time or all in one pass, in 64 bits or, on the trees of wide_sums.h, in 128.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "bn/calltree/method_totals.h"
#include "bn/calltree/tree_profile.h"
#include "naive_profile.h"
#include "owned_strings.h"
#include "random_stacks.h"
#include "stack_tree.h"
#include "wide_sums.h"

using namespace bn::calltree;
using bn::iface::Summary;

namespace {

using bn::test::strings;
using testing::Calls;
using testing::NaiveProfile;
using testing::pick;
using testing::random_case_of_sums;
using testing::RandomCase;

}  // namespace

// The per-method figures (one pass) and the tree's method index are built on first use:
// whichever query comes first on a fresh profile, every method's base, cum, nodes and the sign
// of the costs are then those of the naive model, and asking again gives the same. Two trees in
// three have a method whose base or cum overflows 64 bits (add_wide_sums), so their figures come
// from the exact 128-bit pass.
TEST_CASE("whichever query comes first, the figures built on first use equal the naive ones") {
  std::mt19937 rng(2002);
  for (int i = 0; i < 120; ++i) {
    CAPTURE(i);
    const RandomCase rc = random_case_of_sums(rng, i % 12 == 0, i % 3);
    const NaiveProfile naive(rc.stacks);
    const int first_query = i % 5;
    CAPTURE(first_query);
    CallTree built = testing::tree_from_stacks(rc.stacks);
    // A moved tree, or a copy under its own metric: each builds its own index when first asked.
    const CallTree tree = i % 2 == 0 ? std::move(built) : built.with_metric(0);
    TreeProfile p(tree);
    std::vector<Summary> methods;
    for (const std::string& name : naive.methods()) methods.push_back(*p.method_summary(name));
    const Summary one = pick(rng, methods);
    const Calls one_calls = strings(p.path_of(one));
    switch (first_query) {
      case 0:
        CHECK(p.cum_of(one) == naive.total_cum({one_calls}));
        break;
      case 1: {
        bool never_negative = true;  // some of random_case's costs are negative
        for (NodeId n = 1; n < tree.node_count(); ++n) never_negative = never_negative && tree.cost(n) >= 0;
        CHECK(p.costs_never_negative() == never_negative);
        break;
      }
      case 2: {
        std::vector<Calls> all;
        for (const std::string& name : naive.methods()) all.push_back({name});
        CHECK(p.total_base_of(methods) == naive.total_base(all));
        break;
      }
      case 3:
        CHECK(p.summary_set(std::vector{one})->total_cum() == naive.total_cum({one_calls}));
        break;
      default:
        CHECK(p.base_of(one) == naive.total_base({one_calls}));
    }
    for (int round = 0; round < 2; ++round) {
      for (Summary s : methods) {
        const Calls calls = strings(p.path_of(s));
        CHECK(p.base_of(s) == naive.total_base({calls}));
        CHECK(p.cum_of(s) == naive.total_cum({calls}));
        std::vector<NodeId> scanned;  // every node of the method, by a scan of the tree
        for (NodeId n = 1; n < tree.node_count(); ++n)
          if (tree.node_name(n) == calls.front()) scanned.push_back(n);
        const auto listed = tree.nodes_of(*tree.find_method(calls.front()));
        CHECK(std::vector<NodeId>(listed.begin(), listed.end()) == scanned);
      }
    }
  }
}

// MethodTotals on its own: figured one method at a time from its nodes, all at once in one pass,
// or one at a time until the share of the tree is reached, in 64 bits or (the trees of
// add_wide_sums) in 128, every method's figures and the sign of the costs equal the naive ones,
// in any order of asking and when asked again.
TEST_CASE("each method's base, cum and nesting equal the naive ones however the figures are reached") {
  std::mt19937 rng(1969);
  for (int i = 0; i < 180; ++i) {
    CAPTURE(i);
    const bool wide = i % 3 != 0;
    const RandomCase rc = random_case_of_sums(rng, i % 10 == 0, i % 3);
    const NaiveProfile naive(rc.stacks);
    // Every other tree names a method no node is labelled with (as a filtered tree's table may).
    const CallTree tree = [&] {
      TreeBuilder builder;
      if (i % 2 == 1) builder.intern("Never.called");
      for (const auto& [stack, cost] : rc.stacks) builder.add_stack(testing::frames_of(builder, stack), cost);
      Metadata metadata;
      metadata.metric = "samples";
      return std::move(builder).build(std::move(metadata));
    }();
    const double share = std::array{0.0, 0.3, 2.0}[static_cast<std::size_t>(i / 3 % 3)];
    CAPTURE(share);
    MethodTotals totals(tree, share);
    bool never_negative = true;
    for (NodeId n = 1; n < tree.node_count(); ++n) never_negative = never_negative && tree.cost(n) >= 0;
    const bool sign_first = i % 2 == 0;
    if (sign_first) CHECK(totals.costs_never_negative() == never_negative);
    std::vector<std::string> names(naive.methods().begin(), naive.methods().end());
    for (int round = 0; round < 2; ++round) {
      std::shuffle(names.begin(), names.end(), rng);
      for (const std::string& name : names) {
        CAPTURE(name);
        bool nested = false;  // some node of the method lies below another
        for (const auto& [context, cost] : naive.nodes())
          nested = nested || (context.back() == name && std::count(context.begin(), context.end(), name) > 1);
        const MethodTotals::Figures f = totals[*tree.find_method(name)];
        CHECK(f.base == naive.total_base({{name}}));
        CHECK(f.cum == naive.total_cum({{name}}));
        CHECK(f.nested == nested);
      }
    }
    if (!sign_first) CHECK(totals.costs_never_negative() == never_negative);
    if (share == 0.0) CHECK(totals.complete());
    if (share == 2.0) CHECK(totals.complete() == wide);  // only an overflow figures them all
    // A method occurs when the naive profile has a node of it (and only then has CallTree a list).
    for (MethodId m = 0; m < tree.method_count(); ++m) {
      bool labels_a_node = false;
      for (const auto& [context, cost] : naive.nodes())
        labels_a_node = labels_a_node || context.back() == tree.method_name(m);
      CHECK(totals.occurs(m) == labels_a_node);
      CHECK(tree.nodes_of(m).empty() == !labels_a_node);
    }
    CHECK(totals.complete());  // occurs() figured them all
    CHECK(totals.widened() == wide);
  }
}
