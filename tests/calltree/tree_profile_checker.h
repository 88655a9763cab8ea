#pragma once
// Test helper: checks every query TreeProfile answers about summaries, sets of them and their
// overlaps against NaiveProfile, the deliberately naive evaluation of the seed 004 sec. 2.2 set
// definitions (calling contexts as lists of names, explicit sets summed at the end). Used by the
// property tests of tree_profile_property_test.cpp.

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/overlap.h"
#include "callers_up_to.h"
#include "naive_profile.h"
#include "owned_strings.h"
#include "random_stacks.h"

namespace bn::calltree::testing {

using bn::iface::Amount;
using bn::iface::Summary;

// The CallTree node of a calling context, found by walking children by name.
inline NodeId node_of(const CallTree& tree, const Context& context) {
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

using bn::test::strings;

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
    // Scanned for a few, then (listed just before) read from the list.
    bn::test::check_callers_up_to(p_, s, naive_.extensions(expected, true));
    CHECK(strings(p_.top_extensions(s)) == naive_.extensions(expected, true));
    bn::test::check_callers_up_to(p_, s, naive_.extensions(expected, true));
    CHECK(strings(p_.bottom_extensions(s)) == naive_.extensions(expected, false));
    // extension_amounts measures every extension without interning it (or reads the interned
    // one): the same names, and the naive cum and base of each extended sequence. Asked again
    // (top, bottom, top, bottom), the second answers come from the backend's cache.
    for (const bn::iface::End end :
         {bn::iface::End::top, bn::iface::End::bottom, bn::iface::End::top, bn::iface::End::bottom}) {
      const std::vector<std::string> listed = checked_amounts(expected, end, p_.extension_amounts(s, end));
      CHECK(listed == naive_.extensions(expected, end == bn::iface::End::top));
    }
  }

  // Each of `amounts`, the extensions of `calls` at `end`, has the naive cum and base of the
  // extended sequence; returns their names, sorted.
  std::vector<std::string> checked_amounts(const Calls& calls, bn::iface::End end,
                                           const std::vector<bn::iface::ExtensionAmounts>& amounts) {
    std::vector<std::string> listed;
    for (const bn::iface::ExtensionAmounts& e : amounts) {
      Calls longer = calls;
      longer.insert(end == bn::iface::End::top ? longer.begin() : longer.end(), std::string(e.method));
      listed.push_back(std::string(e.method));
      CHECK(e.cum == naive_.total_cum({longer}));
      CHECK(e.base == naive_.total_base({longer}));
    }
    std::sort(listed.begin(), listed.end());
    return listed;
  }

  // A walk (zooming's ExtensionWalk) from `start` at `end` by random extensions: each step's
  // amounts are the naive cum and base of every extended sequence, a name that is no extension is
  // refused and leaves the walk where it was, and the summary reached is the handle extending
  // step by step gives (check() keeps one handle per sequence).
  void check_walk(std::mt19937& rng, Summary start, bn::iface::End end, int steps,
                  const std::vector<std::string>& alphabet) {
    const bool top = end == bn::iface::End::top;
    Calls reached = strings(p_.path_of(start));
    const std::unique_ptr<bn::iface::ExtensionWalk> walk = p_.extension_walk(start, end);
    for (int step = 0; step < steps; ++step) {
      const std::string sequence = join(reached);
      CAPTURE(sequence);
      const std::vector<std::string> listed = checked_amounts(reached, end, walk->amounts());
      REQUIRE(listed == naive_.extensions(reached, top));
      const std::string other = pick(rng, alphabet);
      if (!std::binary_search(listed.begin(), listed.end(), other)) CHECK_THROWS_AS(walk->extend(other), bn::Error);
      if (listed.empty()) break;
      const std::string m = pick(rng, listed);
      walk->extend(m);
      reached.insert(top ? reached.begin() : reached.end(), m);
    }
    check(walk->summary(), reached);
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
      check_pair_overlaps(listed, listed_calls);
    }
  }

  // Profile::pair_overlaps of the sets: each pair listed once, in order, exactly when its naive
  // overlap is not zero, with that overlap.
  void check_pair_overlaps(const std::vector<bn::iface::SummarySet*>& sets,
                           const std::vector<std::vector<Calls>>& sets_calls) {
    const std::vector<bn::iface::SetPairOverlap> pairs = p_.pair_overlaps(sets);
    std::size_t at = 0;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      for (std::size_t j = i + 1; j < sets.size(); ++j) {
        CAPTURE(i);
        CAPTURE(j);
        const bn::iface::Overlap expected = naive_overlap(sets_calls[i], sets_calls[j]);
        const bool listed = at < pairs.size() && pairs[at].first == i && pairs[at].second == j;
        CHECK(listed == (expected != bn::iface::Overlap{}));
        if (listed) CHECK(pairs[at++].overlap == expected);
      }
    }
    CHECK(at == pairs.size());
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
    return {naive_.sum(cum_shared), naive_.base_sum(base_shared)};
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

}  // namespace bn::calltree::testing
