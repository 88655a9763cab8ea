// Property test: on random trees with plenty of recursion, every operation of TreeProfile
// equals a deliberately naive evaluation of the seed 004 sec. 2.2 set definitions. The naive
// model knows nothing of preorder, subtree sizes or cum-costs: a node is its calling context
// (the list of method names from the outermost frame), paths are found by trying every
// node, and along/final/descendants are explicit std::sets that are summed at the end.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn/calltree/method_totals.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/overlap.h"
#include "naive_profile.h"
#include "random_stacks.h"
#include "stack_tree.h"

using namespace bn::calltree;
using bn::iface::Amount;
using bn::iface::Summary;

namespace {

using testing::Calls;
using testing::Context;
using testing::NaivePaths;
using testing::NaiveProfile;
using testing::pick;
using testing::random_case;
using testing::RandomCase;

// The CallTree node of a calling context, found by walking children by name.
NodeId node_of(const CallTree& tree, const Context& context) {
  NodeId n = kRootNode;
  for (const std::string& name : context) {
    NodeId next = kNoNode;
    for (NodeId c : tree.children(n))
      if (tree.node_name(c) == name) next = c;
    REQUIRE(next != kNoNode);
    n = next;
  }
  return n;
}

std::vector<std::string> strings(const std::vector<std::string_view>& views) { return {views.begin(), views.end()}; }

class Checker {
 public:
  Checker(const CallTree& tree, TreeProfile& p, const NaiveProfile& naive) : tree_(tree), p_(p), naive_(naive) {}

  // Every query about one summary agrees with the naive model; handles are stable.
  void check(Summary s, const Calls& expected) {
    const std::string sequence = join(expected);
    CAPTURE(sequence);
    REQUIRE(strings(p_.path_of(s)) == expected);
    const auto [known, inserted] = handles_.emplace(expected, s);
    CHECK(known->second == s);
    if (inserted) visited_.push_back(s);

    const NaivePaths& paths = naive_.paths({expected});
    std::vector<NodeId> roots;
    for (const Context& r : paths.roots) roots.push_back(node_of(tree_, r));
    std::sort(roots.begin(), roots.end());
    const auto got = p_.roots(s);
    CHECK(std::vector<NodeId>(got.begin(), got.end()) == roots);
    CHECK(p_.base_of(s) == naive_.total_base({expected}));
    CHECK(p_.cum_of(s) == naive_.total_cum({expected}));
    CHECK(strings(p_.top_extensions(s)) == naive_.extensions(expected, true));
    CHECK(strings(p_.bottom_extensions(s)) == naive_.extensions(expected, false));
    // extension_amounts measures every extension without interning it (or reads the interned
    // one): the same names, and the naive cum and base of each extended sequence. Asked again
    // (top, bottom, top, bottom), the second answers come from the backend's cache.
    for (const bn::iface::End end :
         {bn::iface::End::top, bn::iface::End::bottom, bn::iface::End::top, bn::iface::End::bottom}) {
      const bool top = end == bn::iface::End::top;
      std::vector<std::string> listed;
      for (const bn::iface::ExtensionAmounts& e : p_.extension_amounts(s, end)) {
        Calls longer = expected;
        longer.insert(top ? longer.begin() : longer.end(), std::string(e.method));
        listed.push_back(std::string(e.method));
        CHECK(e.cum == naive_.total_cum({longer}));
        CHECK(e.base == naive_.total_base({longer}));
      }
      std::sort(listed.begin(), listed.end());
      CHECK(listed == naive_.extensions(expected, top));
    }
  }

  // extend/trim results: nullopt exactly when the naive sequence has no root.
  void check_result(std::optional<Summary> got, const Calls& expected) {
    const bool exists = !expected.empty() && !naive_.paths({expected}).roots.empty();
    REQUIRE(got.has_value() == exists);
    if (got) check(*got, expected);
  }

  // Totals and overlaps of a set, against unions and intersections of explicit node sets.
  void check_set(const std::vector<Summary>& S, Summary s) {
    const std::vector<Calls> calls = calls_of(S);
    const Calls one = strings(p_.path_of(s));
    const std::string sequence = join(one);
    CAPTURE(sequence);
    CHECK(p_.total_base_of(S) == naive_.total_base(calls));
    CHECK(p_.total_cum_of(S) == naive_.total_cum(calls));

    const bn::iface::Overlap shared = naive_overlap({one}, calls);
    CHECK(bn::iface::cum_overlap(p_, s, S) == shared.cum);
    CHECK(bn::iface::base_overlap(p_, s, S) == shared.base);

    // The same kept as a summary set (node lists and prefix sums), asked twice.
    const auto set = p_.summary_set(S);
    CHECK(set->total_cum() == naive_.total_cum(calls));
    CHECK(set->total_base() == naive_.total_base(calls));
    for (int again = 0; again < 2; ++again) CHECK(set->overlap(s) == shared);
  }

  // The overlap of two summary sets, against the intersection of their explicit node sets; the
  // interface's default (total_cum_of of the union) gives the same.
  void check_sets(const std::vector<Summary>& S, const std::vector<Summary>& T) {
    const bn::iface::Overlap expected = naive_overlap(calls_of(S), calls_of(T));
    const auto a = p_.summary_set(S), b = p_.summary_set(T);
    CHECK(a->overlap(*b) == expected);
    CHECK(b->overlap(*a) == expected);
    bn::iface::SummarySet plain(p_, S);
    CHECK(plain.overlap(*b) == expected);
  }

  // The overlap of s with several sets at once (Profile::overlaps: per set, or one sweep over
  // all the sets' subtrees when s has many), each against its node sets' intersection.
  void check_overlaps(Summary s, const std::vector<std::vector<Summary>>& sets) {
    const Calls one = strings(p_.path_of(s));
    std::vector<std::unique_ptr<bn::iface::SummarySet>> kept;
    std::vector<bn::iface::SummarySet*> asked;
    for (const auto& S : sets) {
      kept.push_back(p_.summary_set(S));
      asked.push_back(kept.back().get());
    }
    for (int again = 0; again < 2; ++again) {
      const std::vector<bn::iface::Overlap> got = p_.overlaps(s, asked);
      REQUIRE(got.size() == sets.size());
      for (std::size_t i = 0; i < sets.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i] == naive_overlap({one}, calls_of(sets[i])));
      }
    }
  }

  // Many sets (labels) asked their overlaps with one summary after another, as `select` and
  // `path` ask them: once a summary of many subtrees has made the merge of all the sets' tops,
  // every later one is swept through it, skipping and summing whole stretches at its
  // checkpoints. Each answer equals the interface's definition (SummarySet's generic overlap:
  // cum(s) + total_cum(S) - total_cum(S ∪ {s}), from the backend's unions) and the naive
  // intersection of node sets.
  void check_swept_overlaps(std::mt19937& rng, const std::vector<Summary>& seen) {
    std::vector<std::vector<Summary>> sets(std::uniform_int_distribution<std::size_t>(1, 12)(rng));
    std::vector<std::unique_ptr<bn::iface::SummarySet>> kept;
    std::vector<bn::iface::SummarySet*> asked;
    std::vector<std::vector<Calls>> sets_calls;
    for (auto& S : sets) {
      for (int i = std::uniform_int_distribution<int>(1, 5)(rng); i > 0; --i) S.push_back(pick(rng, seen));
      kept.push_back(p_.summary_set(S));
      asked.push_back(kept.back().get());
      sets_calls.push_back(calls_of(S));
    }
    std::vector<Summary> order = seen;
    std::shuffle(order.begin(), order.end(), rng);
    if (order.size() > 24) order.resize(24);
    // Twice: the second time the merge is there from the first summary.
    for (int pass = 0; pass < 2; ++pass)
      for (Summary s : order) {
        const Calls one = strings(p_.path_of(s));
        const std::string sequence = join(one);
        CAPTURE(sequence);
        const std::vector<bn::iface::Overlap> got = p_.overlaps(s, asked);
        REQUIRE(got.size() == sets.size());
        for (std::size_t i = 0; i < sets.size(); ++i) {
          CAPTURE(i);
          CHECK(got[i] == asked[i]->bn::iface::SummarySet::overlap(s));
          CHECK(got[i] == naive_overlap({one}, sets_calls[i]));
        }
      }
  }

  // A label changed step by step, each set measured from the one before (summary_set_from:
  // what it kept united with the added summaries', or measured afresh after a removal), against
  // the naive unions; its overlaps with another set (both ways) and with a summary. Sometimes the
  // added summary was asked first, as `path` then `label` do, so its own lists are the kept ones.
  void check_grown(std::mt19937& rng, const std::vector<Summary>& seen, const std::vector<Summary>& T) {
    const auto other = p_.summary_set(T);
    const std::vector<Calls> other_calls = calls_of(T);
    // More sets, for its overlaps with all of them at once (Profile::set_overlaps: walks that
    // go together against its coverage, or each by the index).
    std::vector<std::vector<Summary>> more(std::uniform_int_distribution<std::size_t>(1, 4)(rng));
    std::vector<std::unique_ptr<bn::iface::SummarySet>> kept;
    std::vector<bn::iface::SummarySet*> others{other.get()};
    for (auto& U : more) {
      for (int i = std::uniform_int_distribution<int>(1, 5)(rng); i > 0; --i) U.push_back(pick(rng, seen));
      kept.push_back(p_.summary_set(U));
      others.push_back(kept.back().get());
    }
    std::vector<std::vector<Calls>> others_calls{other_calls};
    for (const auto& U : more) others_calls.push_back(calls_of(U));
    std::vector<Summary> members{pick(rng, seen)};
    std::unique_ptr<bn::iface::SummarySet> set = p_.summary_set(members);
    for (int step = 0; step < 8; ++step) {
      const int op = std::uniform_int_distribution<int>(0, 6)(rng);
      // Mostly any summary seen; sometimes one the set has already (its region inside the set's)
      // or one a member extends or is extended by (nested regions).
      const Summary s = op == 5 ? pick(rng, members) : op == 6 ? related(rng, pick(rng, members)) : pick(rng, seen);
      const std::vector<Summary> before = members;
      if (op == 0 && members.size() > 1) {
        members.erase(members.begin() + std::uniform_int_distribution<std::ptrdiff_t>(
                                            0, static_cast<std::ptrdiff_t>(members.size()) - 1)(rng));
      } else {
        if (op == 1) set->overlap(s);  // s's lists are kept when it is added
        members.push_back(s);
        if (op == 2) members.push_back(pick(rng, seen));  // two at once
      }
      const std::unique_ptr<bn::iface::SummarySet> earlier = std::move(set);
      set = p_.summary_set_from(*earlier, members);
      const std::vector<Calls> calls = calls_of(members);
      CAPTURE(step);
      CHECK(set->total_cum() == naive_.total_cum(calls));
      CHECK(set->total_base() == naive_.total_base(calls));
      const bn::iface::Overlap expected = naive_overlap(calls, other_calls);
      CHECK(set->overlap(*other) == expected);
      CHECK(other->overlap(*set) == expected);
      const std::vector<bn::iface::Overlap> all = p_.set_overlaps(*set, others);
      REQUIRE(all.size() == others.size());
      for (std::size_t i = 0; i < others.size(); ++i) CHECK(all[i] == naive_overlap(calls, others_calls[i]));
      if (op != 0 && op != 2) check_grown_overlaps(*set, *earlier, before, s, others, others_calls);
      const Summary probe = pick(rng, seen);
      const Calls probe_calls = strings(p_.path_of(probe));
      CHECK(set->overlap(probe) == naive_overlap({probe_calls}, calls));
      // Every set's overlap with a summary at once (Profile::overlaps), the grown set put among
      // the others at some place and one of them left out at times: the merge of the sets' tops
      // kept from the step before is renumbered and the grown set's tops merged in.
      std::vector<bn::iface::SummarySet*> listed(others.begin(), others.end());
      std::vector<std::vector<Calls>> listed_calls{other_calls};
      for (const auto& U : more) listed_calls.push_back(calls_of(U));
      if (listed.size() > 1 && step % 3 == 2) {
        listed.pop_back();
        listed_calls.pop_back();
      }
      const auto place =
          std::uniform_int_distribution<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(listed.size()))(rng);
      listed.insert(listed.begin() + place, set.get());
      listed_calls.insert(listed_calls.begin() + place, calls);
      const std::vector<bn::iface::Overlap> with = p_.overlaps(probe, listed);
      REQUIRE(with.size() == listed.size());
      for (std::size_t i = 0; i < listed.size(); ++i) {
        CAPTURE(i);
        CHECK(with[i] == naive_overlap({probe_calls}, listed_calls[i]));
      }
    }
  }

  // grown_set_overlaps of `grown`, the set `earlier` (of `before`) with s added, given earlier's
  // and s's naive overlaps with each of `others`: each equals grown's naive overlap.
  void check_grown_overlaps(bn::iface::SummarySet& grown, bn::iface::SummarySet& earlier,
                            const std::vector<Summary>& before, Summary s,
                            const std::vector<bn::iface::SummarySet*>& others,
                            const std::vector<std::vector<Calls>>& others_calls) {
    const std::vector<Calls> earlier_calls = calls_of(before);
    std::vector<Calls> grown_calls = earlier_calls;
    grown_calls.push_back(strings(p_.path_of(s)));
    std::vector<bn::iface::Overlap> earlier_with, added_with;
    for (const auto& calls : others_calls) {
      earlier_with.push_back(naive_overlap(earlier_calls, calls));
      added_with.push_back(naive_overlap({grown_calls.back()}, calls));
    }
    // As `path` of s before `label` does: its overlaps with the sets as they were (earlier among
    // them), which may keep all their tops merged for the backend to sweep s's share through.
    std::vector<bn::iface::SummarySet*> shown{&earlier};
    shown.insert(shown.end(), others.begin(), others.end());
    p_.overlaps(s, shown);
    const std::vector<bn::iface::Overlap> got =
        p_.grown_set_overlaps(grown, earlier, s, others, earlier_with, added_with);
    REQUIRE(got.size() == others.size());
    for (std::size_t i = 0; i < others.size(); ++i) {
      CAPTURE(i);
      CHECK(got[i] == naive_overlap(grown_calls, others_calls[i]));
    }
  }

  // A summary whose region nests with s's: an extension of s at either end, or s trimmed (s
  // itself when it has neither).
  Summary related(std::mt19937& rng, Summary s) {
    const int way = std::uniform_int_distribution<int>(0, 2)(rng);
    if (way == 2) return p_.trim_bottom(s).value_or(s);
    const auto names = way == 0 ? p_.top_extensions(s) : p_.bottom_extensions(s);
    if (names.empty()) return s;
    const std::string m(pick(rng, std::vector<std::string_view>(names.begin(), names.end())));
    return (way == 0 ? p_.extend_top(s, m) : p_.extend_bottom(s, m)).value_or(s);
  }

  const std::vector<Summary>& visited() const { return visited_; }

 private:
  std::vector<Calls> calls_of(const std::vector<Summary>& S) {
    std::vector<Calls> calls;
    for (Summary x : S) calls.push_back(strings(p_.path_of(x)));
    return calls;
  }

  // The cost of the measurements both sets of call sequences count, in cum and in base.
  bn::iface::Overlap naive_overlap(const std::vector<Calls>& a, const std::vector<Calls>& b) const {
    std::set<Context> cum_shared, base_shared;
    const std::set<Context>& cum_a = naive_.cum_nodes(a);
    const std::set<Context>& cum_b = naive_.cum_nodes(b);
    std::set_intersection(cum_a.begin(), cum_a.end(), cum_b.begin(), cum_b.end(),
                          std::inserter(cum_shared, cum_shared.end()));
    const std::set<Context>& along_a = naive_.paths(a).along;
    const std::set<Context>& along_b = naive_.paths(b).along;
    std::set_intersection(along_a.begin(), along_a.end(), along_b.begin(), along_b.end(),
                          std::inserter(base_shared, base_shared.end()));
    return {naive_.sum(cum_shared), naive_.sum(base_shared)};
  }

  static std::string join(const Calls& calls) {
    std::string text;
    for (const auto& c : calls) text += (text.empty() ? "" : ";") + c;
    return text;
  }

  const CallTree& tree_;
  TreeProfile& p_;
  const NaiveProfile& naive_;
  std::map<Calls, Summary> handles_;
  std::vector<Summary> visited_;
};

// The stacks' costs as metric "calls" of a tree whose metric 0 has other, random costs, then
// made the tree's metric 0 by with_metric: what `--metric` and `set metric` search.
CallTree tree_under_second_metric(const testing::Stacks& stacks, std::mt19937& rng) {
  TreeBuilder builder;
  builder.declare_extra_metrics({{"calls", "count"}});
  for (const auto& [stack, cost] : stacks) {
    const NodeId node =
        builder.add_stack(testing::frames_of(builder, stack), static_cast<Cost>(rng() % 1000));  // the decoy
    builder.add_metric_cost(1, node, cost);
  }
  Metadata metadata;
  metadata.metric = "time";
  metadata.unit = "ns";
  const CallTree both = std::move(builder).build(std::move(metadata));
  return both.with_metric(*both.find_metric("calls"));
}

void run_case(std::mt19937& rng, bool large, bool second_metric = false) {
  const RandomCase rc = random_case(rng, large);
  const CallTree tree = second_metric ? tree_under_second_metric(rc.stacks, rng) : testing::tree_from_stacks(rc.stacks);
  const NaiveProfile naive(rc.stacks);
  TreeProfile p(tree);
  Checker checker(tree, p, naive);

  const auto initial = p.initial_summaries();
  std::vector<std::string> names;
  for (Summary s : initial) names.push_back(strings(p.path_of(s)).front());
  REQUIRE(names == std::vector<std::string>(naive.methods().begin(), naive.methods().end()));
  for (Summary s : initial) checker.check(s, strings(p.path_of(s)));

  // Random walks of extend/trim, sometimes with a name that is not an extension.
  for (int walk = 0; walk < 4; ++walk) {
    Summary s = pick(rng, initial);
    for (int step = 0; step < 12; ++step) {
      const Calls calls = strings(p.path_of(s));
      const int op = std::uniform_int_distribution<int>(0, 5)(rng);
      Calls expected;
      std::optional<Summary> next;
      if (op <= 3) {
        const bool top = op % 2 == 0;
        const auto extensions = strings(top ? p.top_extensions(s) : p.bottom_extensions(s));
        const std::string m = op < 2 && !extensions.empty() ? pick(rng, extensions) : pick(rng, rc.alphabet);
        // Listing extensions keeps the nodes found for extending by them; listing another
        // summary's extensions first makes the extension search the tree itself.
        if (op >= 2) {
          const Summary other = pick(rng, checker.visited());
          if (top)
            p.top_extensions(other);
          else
            p.bottom_extensions(other);
        }
        expected = calls;
        if (top)
          expected.insert(expected.begin(), m);
        else
          expected.push_back(m);
        next = top ? p.extend_top(s, m) : p.extend_bottom(s, m);
      } else {
        if (calls.size() > 1)
          expected = op == 4 ? Calls(calls.begin() + 1, calls.end()) : Calls(calls.begin(), calls.end() - 1);
        next = op == 4 ? p.trim_top(s) : p.trim_bottom(s);
      }
      checker.check_result(next, expected);
      if (next) s = *next;
    }
  }

  // Random sets (with repeats) of the summaries seen, and one summary to overlap with them.
  const auto& seen = checker.visited();
  for (int round = 0; round < 6; ++round) {
    std::vector<Summary> S;
    for (int i = std::uniform_int_distribution<int>(0, 5)(rng); i > 0; --i) S.push_back(pick(rng, seen));
    checker.check_set(S, pick(rng, seen));
  }
  // Pairs of random sets, from a generator of their own so that the cases above stay the same.
  std::mt19937 local(static_cast<unsigned>(tree.node_count() * 7919 + seen.size()));
  for (int round = 0; round < 6; ++round) {
    std::vector<Summary> S, T;
    for (int i = std::uniform_int_distribution<int>(0, 6)(local); i > 0; --i) S.push_back(pick(local, seen));
    for (int i = std::uniform_int_distribution<int>(0, 6)(local); i > 0; --i) T.push_back(pick(local, seen));
    checker.check_sets(S, T);
    std::vector<std::vector<Summary>> sets(std::uniform_int_distribution<std::size_t>(1, 5)(local));
    for (auto& U : sets)
      for (int i = std::uniform_int_distribution<int>(0, 3)(local); i > 0; --i) U.push_back(pick(local, seen));
    checker.check_overlaps(pick(local, seen), sets);
  }
  // Sets grown from earlier ones, from a generator of their own too.
  std::mt19937 grown(static_cast<unsigned>(tree.node_count() * 104729 + seen.size()));
  for (int round = 0; round < 3; ++round) {
    std::vector<Summary> T;
    for (int i = std::uniform_int_distribution<int>(1, 6)(grown); i > 0; --i) T.push_back(pick(grown, seen));
    checker.check_grown(grown, seen, T);
  }
  // Many sets swept, from a generator of its own too.
  std::mt19937 swept(static_cast<unsigned>(tree.node_count() * 15485863 + seen.size()));
  checker.check_swept_overlaps(swept, seen);
}

}  // namespace

TEST_CASE("on random recursive trees every operation equals the naive set definitions") {
  std::mt19937 rng(20040607);
  for (int i = 0; i < 400; ++i) {
    CAPTURE(i);
    run_case(rng, false);
  }
}

TEST_CASE("under a profile's second metric every operation equals the naive recount of that metric") {
  std::mt19937 rng(15);
  for (int i = 0; i < 150; ++i) {
    CAPTURE(i);
    run_case(rng, i % 10 == 0, true);
  }
}

TEST_CASE("on larger random trees the sweeps agree with the naive set definitions") {
  std::mt19937 rng(31337);
  for (int i = 0; i < 15; ++i) {
    CAPTURE(i);
    run_case(rng, true);
  }
}

namespace {

// Adds to a random case five pairs of stacks under one method m, each pair S;pK (cost -2^61) and
// below it either S;pK;m (cost 2^61) or S;pK;m;qK (cost 2^61), S one of its stacks or none: every
// node's cum-cost still fits in 64 bits (each pair cancels under S;pK), but base([m]) adds up
// five times 2^61, past 2^63, or (`below`) cum([m]) does and base([m]) stays small; there S has
// no frame m, so the five nodes of m are outermost and each counts its 2^61 in cum([m]).
void add_wide_sums(std::mt19937& rng, RandomCase& rc, bool below) {
  constexpr Cost kHuge = Cost{1} << 61;
  const std::string m = pick(rng, rc.alphabet);
  std::vector<std::string> outer{""};  // a pair right under the root
  for (const auto& [stack, cost] : rc.stacks)
    if (!below || (";" + stack + ";").find(";" + m + ";") == std::string::npos) outer.push_back(stack + ";");
  for (int k = 0; k < 5; ++k) {
    const std::string pair = pick(rng, outer) + "p" + std::to_string(k);
    rc.stacks.push_back({pair, -kHuge});
    rc.stacks.push_back({pair + ";" + m + (below ? ";q" + std::to_string(k) : ""), kHuge});
  }
}

// A random case whose sums fit 64 bits (kind 0), or with add_wide_sums: base (kind 1) or cum
// (kind 2) of one method past 64 bits.
RandomCase random_case_of_sums(std::mt19937& rng, bool large, int kind) {
  RandomCase rc = random_case(rng, large);
  if (kind != 0) add_wide_sums(rng, rc, kind == 2);
  return rc;
}

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

// Label sets keep their prefix sums in 64 bits until one leaves them, then in 128: on the trees
// of add_wide_sums, where one method's base or cum is past 2^63, the sets holding it (grown step
// by step, against other sets and summaries) still equal the naive set definitions.
TEST_CASE("summary sets whose sums leave 64 bits equal the naive set definitions") {
  std::mt19937 rng(1964);
  for (int i = 0; i < 60; ++i) {
    CAPTURE(i);
    const RandomCase rc = random_case_of_sums(rng, i % 6 == 0, 1 + i % 2);
    const CallTree tree = testing::tree_from_stacks(rc.stacks);
    const NaiveProfile naive(rc.stacks);
    TreeProfile p(tree);
    Checker checker(tree, p, naive);
    std::vector<Summary> seen = p.initial_summaries();
    for (std::size_t k = 0, methods = seen.size(); k < methods; ++k)
      for (std::string_view m : p.bottom_extensions(seen[k]))
        if (const auto longer = p.extend_bottom(seen[k], m)) seen.push_back(*longer);
    for (int round = 0; round < 3; ++round) {
      std::vector<Summary> S, T;
      for (int k = std::uniform_int_distribution<int>(1, 6)(rng); k > 0; --k) S.push_back(pick(rng, seen));
      for (int k = std::uniform_int_distribution<int>(1, 6)(rng); k > 0; --k) T.push_back(pick(rng, seen));
      checker.check_set(S, pick(rng, seen));
      checker.check_sets(S, T);
      checker.check_overlaps(pick(rng, seen), {S, T});
      checker.check_grown(rng, seen, T);
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
