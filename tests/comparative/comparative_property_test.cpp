// Property test (seed 004 sec. 2.2): on random pairs of call trees, every operation of the
// comparative profile equals the naive single-tree results of A minus k·B, and extension lists
// are the union of both sides', for every normalisation.

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "bn/comparative/comparative_profile.h"
#include "bn/iface/overlap.h"
#include "callers_up_to.h"
#include "naive_tree.h"
#include "owned_strings.h"
#include "random_tree.h"

namespace {

using bn::comparative::ComparativeProfile;
using bn::comparative::Normalization;
using bn::iface::Amount;
using bn::iface::Rational;
using bn::iface::Summary;
using bn::test::Path;

Path to_path(const std::vector<std::string_view>& views) { return {views.begin(), views.end()}; }

using bn::test::strings;

std::vector<std::string> sorted_union(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

struct Case {
  const bn::calltree::CallTree& a;
  const bn::calltree::CallTree& b;
  ComparativeProfile& c;
  Rational k;

  Rational value(Amount numerator) const { return bn::iface::to_rational(numerator, c.denominator()); }
  Rational expected(Amount in_a, Amount in_b) const { return Rational(in_a) - k * Rational(in_b); }
  std::vector<Path> present(const std::vector<Path>& paths, const bn::calltree::CallTree& t) const {
    std::vector<Path> out;
    for (const Path& p : paths)
      if (bn::test::naive_occurs(t, p)) out.push_back(p);
    return out;
  }
};

// Counts of sequences seen only in A, only in B and in both, to show the generator covers them.
struct Coverage {
  int only_a = 0, only_b = 0, both = 0, trim_recomputed = 0;
};

void check_summary(const Case& t, Summary s, Coverage& coverage) {
  const Path p = to_path(t.c.path_of(s));
  const bool in_a = bn::test::naive_occurs(t.a, p);
  const bool in_b = bn::test::naive_occurs(t.b, p);
  REQUIRE((in_a || in_b));
  coverage.only_a += in_a && !in_b;
  coverage.only_b += in_b && !in_a;
  coverage.both += in_a && in_b;

  const auto sides = t.c.sides(s);
  REQUIRE(sides.has_value());
  CHECK(sides->in_a == in_a);
  CHECK(sides->in_b == in_b);
  const Amount base_a = bn::test::naive_total_base(t.a, {p}), base_b = bn::test::naive_total_base(t.b, {p});
  const Amount cum_a = bn::test::naive_total_cum(t.a, {p}), cum_b = bn::test::naive_total_cum(t.b, {p});
  CHECK(t.value(t.c.base_of(s)) == t.expected(base_a, base_b));
  CHECK(t.value(t.c.cum_of(s)) == t.expected(cum_a, cum_b));
  CHECK(t.value(sides->a_cum) == Rational(cum_a));
  CHECK(t.value(sides->b_base) == t.k * Rational(base_b));
  CHECK(t.value(sides->a_total) == Rational(t.a.total_cost()));
  CHECK(t.value(sides->b_total) == t.k * Rational(t.b.total_cost()));
  CHECK(sides->a_cum - sides->b_cum == t.c.cum_of(s));
  CHECK(sides->a_base - sides->b_base == t.c.base_of(s));

  for (const bool top : {true, false}) {
    const std::vector<std::string> expected =
        sorted_union(bn::test::naive_extensions(t.a, p, top), bn::test::naive_extensions(t.b, p, top));
    const std::vector<std::string> got = strings(top ? t.c.top_extensions(s) : t.c.bottom_extensions(s));
    CHECK(got == expected);
    if (top) bn::test::check_callers_up_to(t.c, s, expected);
    // Every method of either tree: extending succeeds exactly for the listed ones.
    for (const std::string& m : sorted_union(bn::test::naive_methods(t.a), bn::test::naive_methods(t.b))) {
      const auto e = top ? t.c.extend_top(s, m) : t.c.extend_bottom(s, m);
      const bool listed = std::binary_search(expected.begin(), expected.end(), m);
      CHECK(e.has_value() == listed);
      if (!e) continue;
      Path q = p;
      if (top)
        q.insert(q.begin(), m);
      else
        q.push_back(m);
      CHECK(to_path(t.c.path_of(*e)) == q);
    }
    const auto trimmed = top ? t.c.trim_top(s) : t.c.trim_bottom(s);
    CHECK(trimmed.has_value() == (p.size() > 1));
    if (!trimmed) continue;
    Path q(p.begin() + (top ? 1 : 0), p.end() - (top ? 0 : 1));
    CHECK(to_path(t.c.path_of(*trimmed)) == q);
    const auto trimmed_sides = t.c.sides(*trimmed);
    CHECK(trimmed_sides->in_a == bn::test::naive_occurs(t.a, q));
    CHECK(trimmed_sides->in_b == bn::test::naive_occurs(t.b, q));
    coverage.trim_recomputed += (trimmed_sides->in_a && !in_a) || (trimmed_sides->in_b && !in_b);
    CHECK(t.value(t.c.cum_of(*trimmed)) ==
          t.expected(bn::test::naive_total_cum(t.a, {q}), bn::test::naive_total_cum(t.b, {q})));
  }
  // extension_amounts and the running union over extensions, against the naive definitions.
  for (const bn::iface::End end : {bn::iface::End::top, bn::iface::End::bottom}) {
    const bool top = end == bn::iface::End::top;
    const auto running = t.c.extension_union(s, end);
    std::vector<Path> added;
    std::vector<std::string> names;
    for (const bn::iface::ExtensionAmounts& e : t.c.extension_amounts(s, end)) {
      Path q = p;
      if (top)
        q.insert(q.begin(), std::string(e.method));
      else
        q.push_back(std::string(e.method));
      names.push_back(std::string(e.method));
      const auto q_a = t.present({q}, t.a), q_b = t.present({q}, t.b);
      CHECK(t.value(e.cum) == t.expected(bn::test::naive_total_cum(t.a, q_a), bn::test::naive_total_cum(t.b, q_b)));
      CHECK(t.value(e.base) == t.expected(bn::test::naive_total_base(t.a, q_a), bn::test::naive_total_base(t.b, q_b)));
      running->add(e);
      added.push_back(q);
      const auto all_a = t.present(added, t.a), all_b = t.present(added, t.b);
      CHECK(t.value(running->total()) ==
            t.expected(bn::test::naive_total_cum(t.a, all_a), bn::test::naive_total_cum(t.b, all_b)));
    }
    std::sort(names.begin(), names.end());
    CHECK(names == sorted_union(bn::test::naive_extensions(t.a, p, top), bn::test::naive_extensions(t.b, p, top)));
  }

  // Interned by call sequence: rebuilding the sequence gives the same handle.
  std::vector<std::string_view> views(p.begin(), p.end());
  CHECK(t.c.path_summary(views) == std::optional<Summary>(s));
}

// Zooming's walk side by side, by random extensions: each step lists what extension_amounts
// lists for the summary extended so far (checked naively above), and the walk ends on the
// summary that extending step by step interns.
void check_walk(const Case& t, Summary s, bn::iface::End end, std::mt19937& rng) {
  const auto walk = t.c.extension_walk(s, end);
  for (int step = 0; step < 6; ++step) {
    const std::vector<bn::iface::ExtensionAmounts> got = walk->amounts();
    const std::vector<bn::iface::ExtensionAmounts> want = t.c.extension_amounts(s, end);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].method == want[i].method);
      CHECK(got[i].cum == want[i].cum);
      CHECK(got[i].base == want[i].base);
    }
    if (want.empty()) break;
    const std::string m(want[rng() % want.size()].method);
    walk->extend(m);
    s = *t.c.extend(s, end, m);
  }
  CHECK(walk->summary() == s);
}

Normalization random_normalization(std::mt19937& rng) {
  switch (rng() % 3) {
    case 0:
      return {};
    case 1:
      return {Normalization::Kind::total, 1};
    default:
      return {Normalization::Kind::scale, Rational(1 + rng() % 7, 1 + rng() % 5)};
  }
}

}  // namespace

TEST_CASE("every comparative operation on random tree pairs equals A minus k times B, computed naively") {
  const std::vector<std::string> alphabet_a{"a", "b", "c", "d", "e"};
  const std::vector<std::string> alphabet_b{"c", "d", "e", "f", "g"};
  const std::vector<std::string> alphabet{"a", "b", "c", "d", "e", "f", "g"};
  Coverage coverage;
  int normalisations[3] = {0, 0, 0};
  for (unsigned seed = 1; seed <= 120; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const bn::calltree::CallTree tree_a = bn::test::random_tree(rng, alphabet_a);
    const bn::calltree::CallTree tree_b = bn::test::random_tree(rng, alphabet_b);
    bn::calltree::TreeProfile pa(tree_a), pb(tree_b);
    Normalization normalization = random_normalization(rng);
    if (normalization.kind == Normalization::Kind::total && tree_b.total_cost() == 0) normalization = {};
    ++normalisations[static_cast<int>(normalization.kind)];
    Rational k = 1;
    if (normalization.kind == Normalization::Kind::total) k = Rational(tree_a.total_cost(), tree_b.total_cost());
    if (normalization.kind == Normalization::Kind::scale) k = normalization.factor;
    ComparativeProfile c(pa, pb, {normalization, false});
    const Case t{tree_a, tree_b, c, k};

    CHECK(t.value(c.total()) == t.expected(tree_a.total_cost(), tree_b.total_cost()));
    std::vector<std::string> initial;
    for (const Summary s : c.initial_summaries()) initial.push_back(std::string(c.path_of(s).front()));
    CHECK(initial == sorted_union(bn::test::naive_methods(tree_a), bn::test::naive_methods(tree_b)));

    // Random sequences over both alphabets: present iff they occur in A or in B.
    std::vector<Summary> reached;
    for (int i = 0; i < 60; ++i) {
      const std::size_t length = 1 + rng() % 4;
      Path p;
      for (std::size_t j = 0; j < length; ++j) p.push_back(alphabet[rng() % alphabet.size()]);
      std::vector<std::string_view> views(p.begin(), p.end());
      const auto s = c.path_summary(views);
      CHECK(s.has_value() == (bn::test::naive_occurs(tree_a, p) || bn::test::naive_occurs(tree_b, p)));
      if (s) reached.push_back(*s);
    }
    for (const Summary s : c.initial_summaries()) reached.push_back(s);
    for (const Summary s : reached) check_summary(t, s, coverage);
    for (int i = 0; i < 6 && !reached.empty(); ++i)
      check_walk(t, reached[rng() % reached.size()], i % 2 == 0 ? bn::iface::End::top : bn::iface::End::bottom, rng);

    // Totals over random sets, duplicates included.
    for (int i = 0; i < 20 && !reached.empty(); ++i) {
      std::vector<Summary> set;
      std::vector<Path> paths;
      for (std::size_t j = rng() % 6; j > 0; --j) {
        set.push_back(reached[rng() % reached.size()]);
        paths.push_back(to_path(c.path_of(set.back())));
      }
      const auto in_a = t.present(paths, tree_a), in_b = t.present(paths, tree_b);
      CHECK(t.value(c.total_base_of(set)) ==
            t.expected(bn::test::naive_total_base(tree_a, in_a), bn::test::naive_total_base(tree_b, in_b)));
      CHECK(t.value(c.total_cum_of(set)) ==
            t.expected(bn::test::naive_total_cum(tree_a, in_a), bn::test::naive_total_cum(tree_b, in_b)));
    }
  }
  CHECK(coverage.only_a > 50);
  CHECK(coverage.only_b > 50);
  CHECK(coverage.both > 50);
  CHECK(coverage.trim_recomputed > 0);
  for (const int count : normalisations) CHECK(count > 10);
}
