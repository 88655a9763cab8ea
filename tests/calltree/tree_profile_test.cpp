#include "bn/calltree/tree_profile.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
#include "bn/iface/coverage.h"
#include "bn/iface/overlap.h"
#include "stack_tree.h"

using namespace bn::calltree;
using bn::calltree::testing::figure2;
using bn::calltree::testing::tree_from_stacks;
using bn::iface::Summary;
using Names = std::vector<std::string_view>;

namespace {

// The summary of a call sequence written "a;b;c", which must exist.
Summary at(TreeProfile& p, std::string_view sequence) {
  std::vector<std::string_view> path;
  std::string_view rest = sequence;
  while (!rest.empty()) {
    const auto semi = rest.find(';');
    path.push_back(rest.substr(0, semi));
    rest = semi == std::string_view::npos ? std::string_view() : rest.substr(semi + 1);
  }
  const auto s = p.path_summary(path);
  REQUIRE_MESSAGE(s, "no summary for ", sequence);
  return *s;
}

std::vector<NodeId> roots_of(TreeProfile& p, Summary s) {
  const auto r = p.roots(s);
  return {r.begin(), r.end()};
}

}  // namespace

TEST_CASE("figure 2: base and cum of [c] are 15 and 97") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const Summary c = at(p, "c");
  CHECK(p.base_of(c) == 15);
  CHECK(p.cum_of(c) == 97);
  CHECK(p.total() == 100);
}

// A view's shape (views/pseudo_names.h): typed time below the Java leaves, a holder's stack below
// :MONITOR, and :RUN of a thread with no Java frame at the root.
TEST_CASE("with refining methods a frame's base holds the typed time below it and cum stays as recorded") {
  const std::set<std::string> typed = {":RUN", ":WAIT", ":MONITOR", ":THREAD T", "@h"};
  const CallTree tree = tree_from_stacks(
      {{"main;work", 1}, {"main;work;:RUN", 3}, {"main;work;:WAIT", 5}, {"main;:MONITOR;:THREAD T;@h", 4}, {":RUN", 2}},
      typed);
  TreeProfile p(tree);
  CHECK(p.base_of(at(p, "work")) == 9);  // its own 1, :RUN 3, :WAIT 5
  CHECK(p.cum_of(at(p, "work")) == 9);
  CHECK(p.base_of(at(p, "main")) == 4);  // the monitor wait below it, the holder's frame included
  CHECK(p.cum_of(at(p, "main")) == 13);
  CHECK(p.base_of(at(p, ":RUN")) == 2);  // only the one under no Java frame
  CHECK(p.cum_of(at(p, ":RUN")) == 5);
  CHECK(p.base_of(at(p, "@h")) == 0);
  // A path's base sums its frames' bases: [work;:RUN] holds all of work's own time; its cum is
  // work's own node and the running part below it.
  CHECK(p.base_of(at(p, "work;:RUN")) == 9);
  CHECK(p.cum_of(at(p, "work;:RUN")) == 4);
  const std::vector<Summary> all = p.initial_summaries();
  CHECK(p.total_base_of(all) == 15);
  CHECK(p.total_cum_of(all) == 15);
}

TEST_CASE("figure 2: the set {[a], [c]} has total base 16 and total cum 100") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const std::vector<Summary> S = {at(p, "a"), at(p, "c")};
  CHECK(p.total_base_of(S) == 16);
  CHECK(p.total_cum_of(S) == 100);
  CHECK(bn::iface::coverage(p, S).percent() == "100.0%");
  const std::vector<Summary> c = {at(p, "c")};
  CHECK(bn::iface::coverage(p, c).percent() == "97.0%");
}

TEST_CASE("figure 2: [c] extends to a and b at the top and to d and e at the bottom") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const Summary c = at(p, "c");
  CHECK(p.top_extensions(c) == Names{"a", "b"});
  CHECK(p.bottom_extensions(c) == Names{"d", "e"});
}

TEST_CASE("figure 2: [c] has two roots and [c;d] exactly one") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  CHECK(p.roots(at(p, "c")).size() == 2);
  const Summary cd = at(p, "c;d");
  REQUIRE(p.roots(cd).size() == 1);
  CHECK(tree.node_name(p.roots(cd).front()) == "c");
  CHECK(tree.node_name(tree.parent(p.roots(cd).front())) == "b");
  CHECK(p.base_of(cd) == 60);
  CHECK(p.cum_of(cd) == 60);
}

TEST_CASE("figure 2: initial summaries are the five methods, sorted by name") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const auto initial = p.initial_summaries();
  REQUIRE(initial.size() == 5);
  Names names;
  for (Summary s : initial) {
    REQUIRE(p.path_of(s).size() == 1);
    names.push_back(p.path_of(s).front());
  }
  CHECK(names == Names{"a", "b", "c", "d", "e"});
}

TEST_CASE("figure 2: all of [c]'s cum overlaps [a]") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const std::vector<Summary> S = {at(p, "a")};
  CHECK(bn::iface::cum_overlap(p, at(p, "c"), S) == 97);
  CHECK(bn::iface::base_overlap(p, at(p, "c"), S) == 0);
}

TEST_CASE("figure 2: extending and trimming move between sequences and keep handles stable") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const Summary c = at(p, "c");
  const auto bc = p.extend_top(c, "b");
  REQUIRE(bc);
  CHECK(p.path_of(*bc) == Names{"b", "c"});
  CHECK(p.base_of(*bc) == 12);
  CHECK(p.cum_of(*bc) == 62);
  const auto abcd = p.extend_top(*p.extend_bottom(*bc, "d"), "a");
  REQUIRE(abcd);
  CHECK(p.path_of(*abcd) == Names{"a", "b", "c", "d"});
  CHECK(p.cum_of(*abcd) == 63);
  // The same sequence reached another way is the same handle.
  CHECK(*abcd == at(p, "a;b;c;d"));
  CHECK(p.trim_top(*bc) == c);
  CHECK(p.trim_bottom(*bc) == at(p, "b"));
  CHECK_FALSE(p.trim_top(c));
  CHECK_FALSE(p.trim_bottom(c));
  CHECK_FALSE(p.extend_top(c, "d"));   // d never calls c
  CHECK_FALSE(p.extend_top(c, "zz"));  // no such method
  CHECK_FALSE(p.extend_bottom(at(p, "d"), "a"));
  CHECK_FALSE(p.extend_top(at(p, "a"), "a"));  // a's parent is the synthetic root
  CHECK(p.top_extensions(at(p, "a")).empty());
}

TEST_CASE("figure 2: the metric comes from the tree's metadata") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  const auto info = p.metric();
  CHECK(info.metric == "samples");
  CHECK(info.is_sample_count);
  CHECK(p.denominator() == 1);
}

TEST_CASE("costs are numerators over the denominator the profile is given, and the numbers stay integers") {
  const CallTree tree = figure2();
  TreeProfile plain(tree);
  TreeProfile over_six(tree, 6);
  CHECK(over_six.denominator() == 6);
  const auto c = at(over_six, "c");
  // The same numerators, now meaning sixths: 97/6 instead of 97.
  CHECK(over_six.cum_of(c) == plain.cum_of(at(plain, "c")));
  CHECK(bn::iface::exact_string(over_six.cum_of(c), over_six.denominator()) == "97/6");
  CHECK(bn::iface::exact_string(over_six.total(), over_six.denominator()) == "50/3");
}

TEST_CASE("a denominator that is not positive is refused") {
  const CallTree tree = figure2();
  CHECK_THROWS_WITH_AS(TreeProfile(tree, 0), doctest::Contains("denominator 0 is not positive"), bn::Error);
  CHECK_THROWS_AS(TreeProfile(tree, -3), bn::Error);
}

TEST_CASE("a handle the profile never returned is refused with an error") {
  const CallTree tree = figure2();
  TreeProfile p(tree);
  CHECK_THROWS_AS(p.base_of(Summary{999}), bn::Error);
  CHECK_THROWS_AS(p.path_of(Summary{999}), bn::Error);
  CHECK_FALSE(p.method_summary("nope"));
}

TEST_CASE("a tree whose method name has two ids that label nodes is refused") {
  StringTable names;
  names.append("a");
  names.append("a");
  NodeTable table{{kNoNode, 0, 1}, {kNoMethod, 0, 1}, {0, 1, 1}};
  const CallTree tree = CallTree::build(std::move(table), std::move(names), {});
  CHECK_THROWS_WITH_AS(TreeProfile{tree}, doctest::Contains("'a' has two ids"), bn::Error);
}

// Recursion: a;b;a;b;c. Nodes a1(1) → b1(2) → a2(4) → b2(8) → c1(16), and a1 → c2(32).
// Summing cum-costs over roots or along nodes would count the inner a and b twice.
TEST_CASE("recursion a;b;a;b;c: cum of a method counts the inner calls once") {
  const CallTree tree =
      tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;a", 4}, {"a;b;a;b", 8}, {"a;b;a;b;c", 16}, {"a;c", 32}});
  TreeProfile p(tree);
  CHECK(p.base_of(at(p, "a")) == 5);
  CHECK(p.cum_of(at(p, "a")) == 63);  // a naive sum of cum-costs gives 91
  CHECK(p.base_of(at(p, "b")) == 10);
  CHECK(p.cum_of(at(p, "b")) == 30);  // naive: 54
  CHECK(p.base_of(at(p, "c")) == 48);
  CHECK(p.cum_of(at(p, "c")) == 48);
}

TEST_CASE("recursion a;b;a;b;c: [a;b] has two overlapping paths, each node counted once") {
  const CallTree tree =
      tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;a", 4}, {"a;b;a;b", 8}, {"a;b;a;b;c", 16}, {"a;c", 32}});
  TreeProfile p(tree);
  const Summary ab = at(p, "a;b");
  CHECK(p.roots(ab).size() == 2);
  CHECK(p.base_of(ab) == 15);
  CHECK(p.cum_of(ab) == 31);  // naive: cum(b1) + cum(b2) + a1 + a2 = 59
  const Summary aba = at(p, "a;b;a");
  CHECK(p.roots(aba).size() == 1);
  CHECK(p.base_of(aba) == 7);
  CHECK(p.cum_of(aba) == 31);
  CHECK(p.cum_of(at(p, "b;a")) == 30);
  CHECK(p.cum_of(at(p, "b;c")) == 24);
  CHECK(p.top_extensions(at(p, "b")) == Names{"a"});
  CHECK(p.bottom_extensions(at(p, "b")) == Names{"a", "c"});
}

TEST_CASE("recursion a;b;a;b;c: trimming finds every root of the shorter sequence") {
  const CallTree tree =
      tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;a", 4}, {"a;b;a;b", 8}, {"a;b;a;b;c", 16}, {"a;c", 32}});
  TreeProfile p(tree);
  const auto aba = p.extend_bottom(*p.extend_bottom(*p.method_summary("a"), "b"), "a");
  REQUIRE(aba);
  REQUIRE(p.roots(*aba).size() == 1);
  // [a;b] starts at both a nodes although [a;b;a] starts only at the outer one.
  const auto ab = p.trim_bottom(*aba);
  REQUIRE(ab);
  CHECK(p.path_of(*ab) == Names{"a", "b"});
  CHECK(roots_of(p, *ab) == std::vector<NodeId>{1, 3});
  CHECK(p.cum_of(*ab) == 31);
  const auto bc = p.extend_bottom(*p.method_summary("b"), "c");
  REQUIRE(bc);
  const auto c = p.trim_top(*bc);
  REQUIRE(c);
  CHECK(p.roots(*c).size() == 2);
  CHECK(p.cum_of(*c) == 48);
}

TEST_CASE("recursion a;b;a;b;c: totals over sets count shared nodes once") {
  const CallTree tree =
      tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;a", 4}, {"a;b;a;b", 8}, {"a;b;a;b;c", 16}, {"a;c", 32}});
  TreeProfile p(tree);
  const Summary a = at(p, "a"), b = at(p, "b"), c = at(p, "c"), ab = at(p, "a;b");
  CHECK(p.total_base_of(std::vector{a, ab}) == 15);
  CHECK(p.total_cum_of(std::vector{a, ab}) == 63);
  CHECK(p.total_base_of(std::vector{b, c}) == 58);
  CHECK(p.total_cum_of(std::vector{b, c}) == 62);
  CHECK(p.total_cum_of(std::vector{ab, c}) == 63);
  CHECK(p.total_cum_of(std::vector{ab, ab, ab}) == 31);
  CHECK(p.total_cum_of(std::vector<Summary>{}) == 0);
  CHECK(p.total_base_of(std::vector<Summary>{}) == 0);
  CHECK(bn::iface::cum_overlap(p, ab, std::vector{b}) == 30);
}

// Recursion a;a;a;a with a b below the second a: a1(1) → a2(2) → a3(4) → a4(8), a2 → b(16).
TEST_CASE("recursion a;a;a: paths of one summary overlap and are counted once") {
  const CallTree tree = tree_from_stacks({{"a", 1}, {"a;a", 2}, {"a;a;a", 4}, {"a;a;a;a", 8}, {"a;a;b", 16}});
  TreeProfile p(tree);
  CHECK(p.base_of(at(p, "a")) == 15);
  CHECK(p.cum_of(at(p, "a")) == 31);  // naive: 31 + 30 + 12 + 8 = 81
  const Summary aa = at(p, "a;a");
  CHECK(p.roots(aa).size() == 3);
  CHECK(p.base_of(aa) == 15);
  CHECK(p.cum_of(aa) == 31);
  const Summary aaa = at(p, "a;a;a");
  CHECK(p.roots(aaa).size() == 2);
  CHECK(p.base_of(aaa) == 15);
  CHECK(p.cum_of(aaa) == 15);  // b hangs off an interior node only
  const Summary aaaa = at(p, "a;a;a;a");
  CHECK(p.roots(aaaa).size() == 1);
  CHECK(p.bottom_extensions(aaaa).empty());
  CHECK_FALSE(p.extend_bottom(aaaa, "a"));
  CHECK(p.cum_of(at(p, "a;b")) == 18);
  CHECK(p.total_cum_of(std::vector{aaa, at(p, "b")}) == 31);
  CHECK(p.total_base_of(std::vector{aaa, at(p, "b")}) == 31);
  CHECK(p.top_extensions(at(p, "a")) == Names{"a"});
  CHECK(p.bottom_extensions(at(p, "a")) == Names{"a", "b"});
}

TEST_CASE("a profile knows whether any measurement is negative, so zooming may bisect") {
  const CallTree plain = figure2();
  CHECK(TreeProfile(plain).costs_never_negative());
  const CallTree with_negative = tree_from_stacks({{"a;b", 5}, {"a;c", -2}});
  CHECK_FALSE(TreeProfile(with_negative).costs_never_negative());
}

namespace {

// Walks from [start] at `end` through `steps`, checking that every step lists what the built
// summary lists, and reaches it.
void check_walk_as_built(TreeProfile& p, std::string_view start, bn::iface::End end,
                         std::initializer_list<std::string_view> steps) {
  const bool bottom = end == bn::iface::End::bottom;
  const auto walk = p.extension_walk(at(p, start), end);
  std::vector<std::string_view> path{start};
  for (const std::string_view m : steps) {
    walk->extend(m);
    path.insert(bottom ? path.end() : path.begin(), m);
    const Summary built = *p.path_summary(path);
    const auto want = p.extension_amounts(built, end);
    const auto got = walk->amounts();
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(got[i].method);
      CHECK(got[i].method == want[i].method);
      CHECK(got[i].cum == want[i].cum);
      CHECK(got[i].base == want[i].base);
    }
    CHECK(walk->summary() == built);
  }
}

}  // namespace

// A walk's step whose paths nest: [a;b] has a path inside the other's final subtree (the inner a
// is a child of the outer b), so its cum is the outer path's, and its extension by a adds the
// inner root to the outer path, a node the two then share (its base counted once).
TEST_CASE("a walk through nested paths measures each step as the built summary does") {
  const CallTree tree = tree_from_stacks(
      {{"main;a;b;a;b;a;x", 7}, {"main;a;b;a;b;y", 5}, {"main;a;b;z", 3}, {"main;a;b;a", 11}, {"main;a;b;a;b", 13}});
  TreeProfile p(tree);
  check_walk_as_built(p, "a", bn::iface::End::bottom, {"b", "a"});
  check_walk_as_built(p, "b", bn::iface::End::top, {"a", "b"});
}

// [x;y] has the paths x2;y and x3;y, the second's root called by the first's: extending both
// upwards by x would count x2 twice if the walk summed them.
TEST_CASE("a walk whose path's caller lies on another path measures each step as the built summary does") {
  const CallTree tree = tree_from_stacks({{"main;x;x;y", 3}, {"main;x;x;x;y", 5}, {"main;x;x", 2}, {"main;x;x;x", 7}});
  TreeProfile p(tree);
  check_walk_as_built(p, "y", bn::iface::End::top, {"x", "x"});
}
