// Property tests of several runs per side (docs/compare.md "Several runs per side"):
// a side is the exact mean of its runs. On random trees, the mean of k copies of one run is that
// run, and every number of a comparison of several runs equals the naive per-run sums over n,
// A's mean minus k times B's.

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "bn/comparative/comparative_profile.h"
#include "bn/iface/overlap.h"
#include "naive_tree.h"
#include "random_tree.h"

namespace {

using bn::calltree::CallTree;
using bn::comparative::ComparativeProfile;
using bn::comparative::Normalization;
using bn::iface::Amount;
using bn::iface::Rational;
using bn::iface::Summary;
using bn::test::Path;

Path random_path(std::mt19937& rng, const std::vector<std::string>& alphabet) {
  Path p;
  for (std::size_t length = 1 + rng() % 3; length > 0; --length) p.push_back(alphabet[rng() % alphabet.size()]);
  return p;
}

// A profile of each tree, and the pointers a comparison takes.
struct Runs {
  std::vector<std::unique_ptr<bn::calltree::TreeProfile>> profiles;
  explicit Runs(const std::vector<const CallTree*>& trees) {
    for (const CallTree* t : trees) profiles.push_back(std::make_unique<bn::calltree::TreeProfile>(*t));
  }
  std::vector<bn::iface::Profile*> pointers() const {
    std::vector<bn::iface::Profile*> out;
    for (const auto& p : profiles) out.push_back(p.get());
    return out;
  }
};

std::vector<const CallTree*> addresses(const std::vector<CallTree>& trees) {
  std::vector<const CallTree*> out;
  for (const CallTree& t : trees) out.push_back(&t);
  return out;
}

Rational value(ComparativeProfile& c, Amount numerator) { return bn::iface::to_rational(numerator, c.denominator()); }

// The naive mean over `runs` of `measure(run)`, each run's paths those of `paths` present there.
template <class Measure>
Rational naive_mean(const std::vector<CallTree>& runs, const std::vector<Path>& paths, Measure measure) {
  Rational sum = 0;
  for (const CallTree& t : runs) {
    std::vector<Path> present;
    for (const Path& p : paths)
      if (bn::test::naive_occurs(t, p)) present.push_back(p);
    sum += Rational(measure(t, present));
  }
  return sum / static_cast<long long>(runs.size());
}

const std::vector<std::string> kAlphabet{"a", "b", "c", "d", "e"};

// The naive cum and base of a tree's paths, for naive_mean.
auto cum(const CallTree& t, const std::vector<Path>& paths) { return bn::test::naive_total_cum(t, paths); }
auto base(const CallTree& t, const std::vector<Path>& paths) { return bn::test::naive_total_base(t, paths); }

// A comparison of random runs by seed: 1 to 3 a side, B weighed by k.
struct RandomComparison {
  explicit RandomComparison(unsigned seed)
      : rng(seed),
        a_runs(trees(1 + seed % 3)),
        b_runs(trees(1 + (seed / 3) % 3)),
        k(1 + seed % 4, 1 + seed % 3),
        as(addresses(a_runs)),
        bs(addresses(b_runs)),
        c(as.pointers(), bs.pointers(), {{Normalization::Kind::scale, k}, false}) {}
  std::vector<CallTree> trees(std::size_t n) {
    std::vector<CallTree> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(bn::test::random_tree(rng, kAlphabet));
    return out;
  }

  // A's naive mean of `measure` minus k times B's.
  template <class Measure>
  Rational naive(const std::vector<Path>& paths, Measure measure) const {
    return naive_mean(a_runs, paths, measure) - k * naive_mean(b_runs, paths, measure);
  }

  std::mt19937 rng;
  const std::vector<CallTree> a_runs, b_runs;
  const Rational k;
  const Runs as, bs;
  ComparativeProfile c;
};

}  // namespace

TEST_CASE("the mean of k copies of one run is that run, and only its noise shrinks") {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const CallTree a = bn::test::random_tree(rng, kAlphabet);
    const CallTree b = bn::test::random_tree(rng, kAlphabet);
    const std::size_t copies = 2 + seed % 3;
    const Runs as(std::vector<const CallTree*>(copies, &a)), bs(std::vector<const CallTree*>(copies, &b));
    bn::calltree::TreeProfile one_a(a), one_b(b);
    const Normalization normalization =
        b.total_cost() == 0 || seed % 2 == 0 ? Normalization{} : Normalization{Normalization::Kind::total, 1};
    ComparativeProfile single(one_a, one_b, {normalization, false});
    ComparativeProfile mean(as.pointers(), bs.pointers(), {normalization, false});

    CHECK(value(mean, mean.total()) == value(single, single.total()));
    CHECK(mean.scaling().factor() == single.scaling().factor());
    std::vector<Summary> set_single, set_mean;
    for (int i = 0; i < 20; ++i) {
      const Path p = random_path(rng, kAlphabet);
      const std::vector<std::string_view> calls(p.begin(), p.end());
      const auto s = single.path_summary(calls);
      const auto m = mean.path_summary(calls);
      REQUIRE(s.has_value() == m.has_value());
      if (!s) continue;
      set_single.push_back(*s);
      set_mean.push_back(*m);
      CHECK(value(mean, mean.cum_of(*m)) == value(single, single.cum_of(*s)));
      CHECK(value(mean, mean.base_of(*m)) == value(single, single.base_of(*s)));
      const auto sides_mean = mean.sides(*m), sides_single = single.sides(*s);
      CHECK(value(mean, sides_mean->a_cum) == value(single, sides_single->a_cum));
      CHECK(value(mean, sides_mean->b_base) == value(single, sides_single->b_base));
      CHECK(mean.top_extensions(*m) == single.top_extensions(*s));
      CHECK(mean.bottom_extensions(*m) == single.bottom_extensions(*s));
      // n identical runs: no spread, so the Poisson estimate of each mean's variance, which is
      // 1/n of one run's: z² grows n-fold.
      const auto noise_mean = mean.noise(*m), noise_single = single.noise(*s);
      REQUIRE(noise_mean);
      CHECK(noise_mean->a_estimate == bn::iface::VarianceEstimate::poisson);
      CHECK(noise_mean->b_estimate == bn::iface::VarianceEstimate::poisson);
      CHECK(noise_mean->z_squared == static_cast<long long>(copies) * noise_single->z_squared);
    }
    CHECK(value(mean, mean.total_cum_of(set_mean)) == value(single, single.total_cum_of(set_single)));
    CHECK(value(mean, mean.total_base_of(set_mean)) == value(single, single.total_base_of(set_single)));
  }
}

TEST_CASE("a comparison of several runs per side is the naive per-run mean of A minus k times B's") {
  int absent_somewhere = 0;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    RandomComparison given(seed);
    std::mt19937& rng = given.rng;
    ComparativeProfile& c = given.c;
    const std::vector<CallTree>& a_runs = given.a_runs;
    const std::vector<CallTree>& b_runs = given.b_runs;
    const Rational& k = given.k;

    const auto total = [](const CallTree& t, const std::vector<Path>&) { return t.total_cost(); };
    CHECK(value(c, c.total()) == given.naive({}, total));

    // Extensions measured in one pass and their running union, against the definitions.
    const auto check_extensions = [&](Summary s, const Path& p, bn::iface::End end) {
      const auto running = c.extension_union(s, end);
      std::vector<Path> added;
      for (const bn::iface::ExtensionAmounts& e : c.extension_amounts(s, end)) {
        Path q = p;
        if (end == bn::iface::End::top)
          q.insert(q.begin(), std::string(e.method));
        else
          q.push_back(std::string(e.method));
        CHECK(value(c, e.cum) == given.naive({q}, cum));
        running->add(e);
        added.push_back(q);
        CHECK(value(c, running->total()) == given.naive(added, cum));
      }
    };

    std::vector<Path> reached;
    std::vector<Summary> set;
    for (int i = 0; i < 20; ++i) {
      const Path p = random_path(rng, kAlphabet);
      const std::vector<std::string_view> calls(p.begin(), p.end());
      const auto s = c.path_summary(calls);
      bool anywhere = false, everywhere = true;
      for (const auto* runs : {&a_runs, &b_runs})
        for (const CallTree& t : *runs) {
          anywhere = anywhere || bn::test::naive_occurs(t, p);
          everywhere = everywhere && bn::test::naive_occurs(t, p);
        }
      REQUIRE(s.has_value() == anywhere);
      if (!s) continue;
      absent_somewhere += !everywhere;
      CHECK(value(c, c.cum_of(*s)) == given.naive({p}, cum));
      CHECK(value(c, c.base_of(*s)) == given.naive({p}, base));
      const auto sides = c.sides(*s);
      CHECK(value(c, sides->a_cum) == naive_mean(a_runs, {p}, cum));
      CHECK(value(c, sides->b_cum) == k * naive_mean(b_runs, {p}, cum));
      CHECK(sides->a_cum - sides->b_cum == c.cum_of(*s));
      reached.push_back(p);
      set.push_back(*s);
      CHECK(value(c, c.total_cum_of(set)) == given.naive(reached, cum));
      CHECK(value(c, c.total_base_of(set)) == given.naive(reached, base));
      for (const bn::iface::End end : {bn::iface::End::top, bn::iface::End::bottom}) {
        check_extensions(*s, p, end);
        // The first summary's again, once others were measured: the profile's kept list, and a
        // running union made after it that adds by the kept tags.
        check_extensions(set.front(), reached.front(), end);
      }
    }
  }
  CHECK(absent_somewhere > 20);  // sequences that some runs lack, which count 0 there
}

TEST_CASE("a comparison's summary sets overlap as the naive per-run unions say") {
  for (unsigned seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    RandomComparison given(seed);
    std::mt19937& rng = given.rng;
    ComparativeProfile& c = given.c;
    // The naive overlap of two lists of paths: what each counts, less what both together count.
    const auto shared = [&](const std::vector<Path>& x, const std::vector<Path>& y, auto measure) {
      std::vector<Path> both = x;
      both.insert(both.end(), y.begin(), y.end());
      return given.naive(x, measure) + given.naive(y, measure) - given.naive(both, measure);
    };

    // Sets of up to three summaries each (some absent from some runs), against each other and
    // against each summary.
    std::vector<std::vector<Path>> paths(4);
    std::vector<std::vector<Summary>> members(4);
    for (int i = 0; i < 12; ++i) {
      const Path p = random_path(rng, kAlphabet);
      const std::vector<std::string_view> calls(p.begin(), p.end());
      if (const auto s = c.path_summary(calls)) {
        paths[i % 4].push_back(p);
        members[i % 4].push_back(*s);
      }
    }
    std::vector<std::unique_ptr<bn::iface::SummarySet>> sets;
    for (const auto& m : members) sets.push_back(c.summary_set(m));
    for (std::size_t i = 0; i < sets.size(); ++i) {
      CHECK(value(c, sets[i]->total_cum()) == given.naive(paths[i], cum));
      CHECK(value(c, sets[i]->total_base()) == given.naive(paths[i], base));
      for (std::size_t j = 0; j < sets.size(); ++j) {
        const bn::iface::Overlap o = sets[i]->overlap(*sets[j]);
        CHECK(value(c, o.cum) == shared(paths[i], paths[j], cum));
        CHECK(value(c, o.base) == shared(paths[i], paths[j], base));
        for (std::size_t m = 0; m < members[j].size(); ++m) {
          const bn::iface::Overlap with = sets[i]->overlap(members[j][m]);
          CHECK(value(c, with.cum) == shared(paths[i], {paths[j][m]}, cum));
          CHECK(value(c, with.base) == shared(paths[i], {paths[j][m]}, base));
        }
      }
    }
    // Every pair that shares anything at once (each run's pairs, combined): each pair once, in
    // order, exactly when its naive overlap is not zero.
    std::vector<bn::iface::SummarySet*> all;
    for (const auto& set : sets) all.push_back(set.get());
    const std::vector<bn::iface::SetPairOverlap> pairs = c.pair_overlaps(all);
    std::size_t at = 0;
    for (std::size_t i = 0; i < sets.size(); ++i) {
      for (std::size_t j = i + 1; j < sets.size(); ++j) {
        const bn::iface::Overlap o = sets[i]->overlap(*sets[j]);
        const bool listed = at < pairs.size() && pairs[at].first == i && pairs[at].second == j;
        CHECK(listed == (o != bn::iface::Overlap{}));
        if (listed) CHECK(pairs[at++].overlap == o);
      }
    }
    CHECK(at == pairs.size());
  }
}
