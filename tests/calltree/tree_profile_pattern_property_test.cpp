// Property test: on random recursive trees, every operation of TreeProfile on call sequences
// with gaps and aspects (seed 000 sec. 2-3) equals a naive stack-matching recount
// (naive_patterns.h): cum, base, extensions and extending at both ends, trimming, the extended
// downward refinement, the upward split, and totals, overlaps and coverage of sets that mix
// such summaries with plain ones (those measured by the seed 004 definitions, naive_profile.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/call_pattern.h"
#include "bn/iface/coverage.h"
#include "bn/iface/overlap.h"
#include "bn/iface/refinements.h"
#include "naive_patterns.h"
#include "owned_strings.h"
#include "random_patterns.h"
#include "random_stacks.h"

using namespace bn::calltree;
using bn::iface::Amount;
using bn::iface::CallPattern;
using bn::iface::End;
using bn::iface::Summary;
using testing::Context;
using testing::NaiveElement;
using testing::NaivePattern;
using testing::NaiveProfile;
using testing::pick;
using testing::RandomAspects;

namespace {

using Kind = bn::iface::PatternElement::Kind;

using bn::test::strings;

class Checker {
 public:
  Checker(TreeProfile& p, const NaiveProfile& naive, const RandomAspects& aspects,
          const std::vector<std::string>& alphabet)
      : p_(p), naive_(naive), aspects_(aspects), alphabet_(alphabet) {}

  // The nodes a summary counts, naively: by the seed 000 rules for a pattern, by seed 004's
  // along and descendants for a plain sequence.
  std::set<Context> nodes(const CallPattern& q, bool cum) const {
    if (!q.is_plain()) return testing::naive_pattern_nodes(naive_, testing::naive_of(q, aspects_), !cum);
    std::vector<std::string> calls;
    for (const auto& e : q.elements) calls.push_back(e.name);
    return cum ? naive_.cum_nodes({calls}) : naive_.paths({calls}).along;
  }
  bool exists(const CallPattern& q) const {
    if (!q.is_plain()) return !nodes(q, true).empty();
    std::vector<std::string> calls;
    for (const auto& e : q.elements) calls.push_back(e.name);
    return !naive_.paths({calls}).roots.empty();
  }

  // pattern_summary(q) exists exactly when the naive recount finds q, and measures the same.
  std::optional<Summary> check_result(std::optional<Summary> got, const CallPattern& q) {
    const std::string text = q.text();
    CAPTURE(text);
    REQUIRE(got.has_value() == exists(q));
    if (!got) return got;
    CHECK(p_.pattern_of(*got).key() == q.key());
    CHECK(p_.cum_of(*got) == naive_.sum(nodes(q, true)));
    CHECK(p_.base_of(*got) == naive_.base_sum(nodes(q, false)));
    CHECK(p_.pattern_summary(q) == got);  // interned: the same handle again
    seen_.push_back(*got);
    return got;
  }

  void check_pattern(Summary s, const CallPattern& q) {
    const std::string text = q.text();
    CAPTURE(text);
    std::vector<std::string> texts;
    for (const auto& e : q.elements) texts.push_back(e.text());
    CHECK(strings(p_.path_of(s)) == texts);
    for (const End end : {End::top, End::bottom}) {
      std::vector<std::string> expected;
      for (const std::string& m : alphabet_)
        if (exists(bn::iface::extended(q, end, m))) expected.push_back(m);
      CHECK(strings(p_.extensions(s, end)) == expected);
      std::vector<std::string> listed;
      for (const auto& e : p_.extension_amounts(s, end)) {
        const CallPattern longer = bn::iface::extended(q, end, e.method);
        listed.emplace_back(e.method);
        CHECK(e.cum == naive_.sum(nodes(longer, true)));
        CHECK(e.base == naive_.base_sum(nodes(longer, false)));
      }
      std::sort(listed.begin(), listed.end());
      CHECK(listed == expected);
      const std::string m = pick_letter();
      check_result(p_.extend(s, end, m), bn::iface::extended(q, end, m));
      const auto shorter = bn::iface::trimmed(q, end);
      const auto got = p_.trim(s, end);
      REQUIRE(got.has_value() == (shorter && exists(*shorter)));
      if (got) check_result(got, *shorter);
    }
    // Extended downward refinement: s;..;x for every x.
    std::vector<std::string> expected_gap;
    for (const std::string& x : alphabet_)
      if (exists(bn::iface::extended_through_gap(q, x))) expected_gap.push_back(x);
    std::vector<std::string> listed_gap;
    for (const auto& e : p_.gap_extensions(s)) {
      const CallPattern longer = bn::iface::extended_through_gap(q, e.method);
      listed_gap.emplace_back(e.method);
      CHECK(e.cum == naive_.sum(nodes(longer, true)));
      CHECK(e.base == naive_.base_sum(nodes(longer, false)));
    }
    std::sort(listed_gap.begin(), listed_gap.end());
    CHECK(listed_gap == expected_gap);
    // Their running union (zooming's on `refine below`), one added at a time, twice each: the
    // naive union of their node sets.
    const auto below = p_.gap_extension_union(s);
    std::set<Context> below_united;
    for (const auto& e : p_.gap_extensions(s)) {
      below->add(e);
      below->add(e);
      const std::set<Context> more = nodes(bn::iface::extended_through_gap(q, e.method), true);
      below_united.insert(more.begin(), more.end());
      CHECK(below->total() == naive_.sum(below_united));
    }
    CHECK_THROWS_AS(below->add({"no such method", 0, 0, 0}), bn::Error);
    CHECK(bn::iface::extended_downward(p_, s).size() == expected_gap.size());
    // Upward split at each gap: P1;..;x;P2 for every x.
    for (const std::size_t gap : q.gaps()) {
      std::set<std::string> expected, got;
      for (const std::string& x : alphabet_)
        if (exists(bn::iface::split_at(q, gap, x))) expected.insert(bn::iface::split_at(q, gap, x).key());
      // And their running union, each added by its caller x, twice: the naive union.
      const auto running = p_.split_union(s, gap);
      std::set<Context> united;
      for (const Summary t : bn::iface::upward_split(p_, s, gap)) {
        const CallPattern split = p_.pattern_of(t);
        got.insert(split.key());
        CHECK(p_.cum_of(t) == naive_.sum(nodes(split, true)));
        CHECK(p_.base_of(t) == naive_.base_sum(nodes(split, false)));
        const std::string x = split.elements[gap + 1].name;
        running->add({x, p_.cum_of(t), p_.base_of(t)});
        running->add({x, p_.cum_of(t), p_.base_of(t)});
        const std::set<Context> more = nodes(split, true);
        united.insert(more.begin(), more.end());
        CHECK(running->total() == naive_.sum(united));
      }
      CHECK(got == expected);
    }
  }

  // Totals, overlaps and coverage of a set of summaries against unions of naive node sets.
  void check_set(const std::vector<Summary>& S, Summary s) {
    std::set<Context> cum_S, base_S;
    for (const Summary x : S) {
      const CallPattern q = p_.pattern_of(x);
      const auto c = nodes(q, true), b = nodes(q, false);
      cum_S.insert(c.begin(), c.end());
      base_S.insert(b.begin(), b.end());
    }
    CHECK(p_.total_cum_of(S) == naive_.sum(cum_S));
    CHECK(p_.total_base_of(S) == naive_.base_sum(base_S));
    CHECK(bn::iface::coverage(p_, S).cum == naive_.sum(cum_S));
    const CallPattern one = p_.pattern_of(s);
    std::set<Context> cum_shared, base_shared;
    const auto cum_s = nodes(one, true), base_s = nodes(one, false);
    std::set_intersection(cum_s.begin(), cum_s.end(), cum_S.begin(), cum_S.end(),
                          std::inserter(cum_shared, cum_shared.end()));
    std::set_intersection(base_s.begin(), base_s.end(), base_S.begin(), base_S.end(),
                          std::inserter(base_shared, base_shared.end()));
    CHECK(bn::iface::cum_overlap(p_, s, S) == naive_.sum(cum_shared));
    CHECK(bn::iface::base_overlap(p_, s, S) == naive_.base_sum(base_shared));
  }

  std::vector<Summary>& seen() { return seen_; }
  std::string pick_letter() { return alphabet_[static_cast<std::size_t>(rng_() % alphabet_.size())]; }

 private:
  TreeProfile& p_;
  const NaiveProfile& naive_;
  const RandomAspects& aspects_;
  const std::vector<std::string>& alphabet_;
  std::vector<Summary> seen_;
  std::mt19937 rng_{7};
};

void run_case(std::mt19937& rng, bool large, bool refining = false) {
  const testing::RandomCase rc = testing::random_case(rng, large);
  const std::set<std::string> refines = refining ? testing::random_refining(rng, rc.alphabet) : std::set<std::string>{};
  const CallTree tree = testing::tree_from_stacks(rc.stacks, refines);
  const NaiveProfile naive(rc.stacks, refines);
  const RandomAspects aspects(rng, rc.alphabet);
  TreeProfile p(tree);
  Checker checker(p, naive, aspects, rc.alphabet);
  for (int i = 0; i < (large ? 4 : 6); ++i) {
    const CallPattern q = testing::random_pattern(rng, rc.alphabet, aspects, false);
    if (const auto s = checker.check_result(p.pattern_summary(q), q)) checker.check_pattern(*s, q);
  }
  for (const Summary s : p.initial_summaries()) checker.seen().push_back(s);
  if (const auto s = p.method_summary(rc.alphabet.front()))
    if (const auto t = p.extend_bottom(*s, pick(rng, rc.alphabet))) checker.seen().push_back(*t);
  const auto seen = checker.seen();
  for (int round = 0; round < 6; ++round) {
    std::vector<Summary> S;
    for (int i = std::uniform_int_distribution<int>(0, 4)(rng); i > 0; --i) S.push_back(pick(rng, seen));
    checker.check_set(S, pick(rng, seen));
  }
}

}  // namespace

TEST_CASE("on random recursive trees, sequences with gaps and aspects equal a naive stack-matching recount") {
  std::mt19937 rng(2002);
  for (int i = 0; i < 300; ++i) {
    CAPTURE(i);
    run_case(rng, false);
  }
}

TEST_CASE("with refining methods, the base of sequences with gaps and aspects sums the naive base column") {
  std::mt19937 rng(2024);
  for (int i = 0; i < 150; ++i) {
    CAPTURE(i);
    run_case(rng, false, true);
  }
}

TEST_CASE("on larger random trees, sequences with gaps and aspects equal a naive stack-matching recount") {
  std::mt19937 rng(4004);
  for (int i = 0; i < 10; ++i) {
    CAPTURE(i);
    run_case(rng, true);
  }
}

TEST_CASE("a plain sequence given as a pattern is the seed 004 summary") {
  const CallTree tree = testing::figure2();
  TreeProfile p(tree);
  const auto q = bn::iface::parse_call_pattern("a;b;c", nullptr);
  const std::vector<std::string_view> path = {"a", "b", "c"};
  CHECK(p.pattern_summary(q) == p.path_summary(path));
}

TEST_CASE("figure 2 with a gap: a;..;c counts every measurement below a c under an a once") {
  const CallTree tree = testing::figure2();
  TreeProfile p(tree);
  const auto s = p.pattern_summary(bn::iface::parse_call_pattern("a;..;c", nullptr));
  REQUIRE(s);
  CHECK(p.cum_of(*s) == 97);   // a;b;c 10 + a;b;c;d 50 + a;c 5 + a;c;e 32
  CHECK(p.base_of(*s) == 15);  // the c frames themselves
  CHECK(strings(p.path_of(*s)) == std::vector<std::string>{"a", "..", "c"});
}
