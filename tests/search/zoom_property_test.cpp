// Zooming (seed 004 sec. 2.3, docs/repl.md "Zooming") as the REPL computes it — candidates
// ranked on extension_amounts, prefixes skipped by the sum-of-cums bound, a running union —
// must give exactly what the definition gives: candidates sorted by |cum|, the fewest leading
// ones whose |total_cum_of| reaches cutoff·|cum(s)| found by a linear scan, zooming through a
// single one. Also the backend's running union over extensions against total_cum_of, and its
// bound on the union of all of them. Checked on random trees, on the naive fake profile (both
// signs) and on the tree backend.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_builder.h"
#include "bn/calltree/tree_profile.h"
#include "bn/search/nearby.h"
#include "fake_profile.h"

using bn::iface::Profile;
using bn::iface::Rational;
using bn::iface::Summary;
using bn::search::NearbyKind;

namespace {

using Stacks = std::vector<std::pair<std::string, bn::iface::Amount>>;

// The definition, step by step: no bounds, no bisection, every candidate built and sorted; a
// single candidate that calls a method of the sequence again is returned, not zoomed through.
std::vector<Summary> zoom_by_definition(Profile& p, Summary s, NearbyKind kind, const Rational& cutoff) {
  const Rational C = cutoff * bn::iface::to_rational(bn::iface::abs_amount(p.cum_of(s)));
  bool zoomed_through = false;
  for (;;) {
    const std::vector<Summary> sorted = bn::search::one_step(p, s, kind);
    std::size_t n = 0;
    for (std::size_t k = 1; k <= sorted.size() && n == 0; ++k) {
      const auto total = p.total_cum_of(std::span(sorted.data(), k));
      if (bn::iface::to_rational(bn::iface::abs_amount(total)) >= C) n = k;
    }
    if (n == 1) {
      // Recursion: the one candidate adds a method the sequence already calls.
      const auto before = p.path_of(s), after = p.path_of(sorted.front());
      if (after.size() > before.size()) {
        const std::string_view added = kind == NearbyKind::kTopExtensions ? after.front() : after.back();
        if (std::find(before.begin(), before.end(), added) != before.end()) return {sorted.front()};
      }
      s = sorted.front();
      zoomed_through = true;
      continue;
    }
    if (n == 0 && zoomed_through) return {s};
    return {sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n)};
  }
}

// Few method names, so recursion and overlapping candidates are common; small costs (zeros
// included), so ties in |cum| and |base| are too.
Stacks random_stacks(std::mt19937& rng) {
  std::uniform_int_distribution<int> count(5, 18), depth(1, 6), method(0, 4), cost(0, 9);
  Stacks out;
  for (int i = count(rng); i > 0; --i) {
    std::string stack;
    for (int d = depth(rng); d > 0; --d)
      stack += (stack.empty() ? "" : ";") + std::string(1, static_cast<char>('a' + method(rng)));
    out.emplace_back(stack, cost(rng));
  }
  return out;
}

bn::calltree::CallTree tree_of(const Stacks& stacks) {
  bn::calltree::TreeBuilder b;
  for (const auto& [text, cost] : stacks) {
    std::vector<bn::calltree::MethodId> frames;
    for (char c : text)
      if (c != ';') frames.push_back(b.intern(std::string(1, c)));
    b.add_stack(frames, static_cast<bn::calltree::Cost>(cost));
  }
  return std::move(b).build({});
}

// Every length-1 summary and its 1-step neighbours, under several cutoffs and all four kinds.
void check_all_starts(Profile& p) {
  const std::vector<Rational> cutoffs{Rational(1, 10),  Rational(1, 2), Rational(3, 5),
                                      Rational(19, 20), Rational(1),    Rational(11, 10)};
  std::vector<Summary> starts = p.initial_summaries();
  for (std::size_t i = 0, n = starts.size(); i < n; ++i)
    for (NearbyKind kind : {NearbyKind::kTopExtensions, NearbyKind::kBottomExtensions})
      for (Summary t : bn::search::one_step(p, starts[i], kind)) starts.push_back(t);
  // The running union over extensions agrees with total_cum_of of the built extensions after
  // every addition, in an order unlike any ranking, with repeats adding nothing.
  std::mt19937 rng(starts.size());
  for (Summary s : starts)
    for (const bn::iface::End end : {bn::iface::End::top, bn::iface::End::bottom}) {
      std::vector<bn::iface::ExtensionAmounts> listed = p.extension_amounts(s, end);
      std::shuffle(listed.begin(), listed.end(), rng);
      if (!listed.empty()) listed.push_back(listed.front());
      const auto running = p.extension_union(s, end);
      CHECK(running->total() == 0);
      std::vector<Summary> built;
      for (const bn::iface::ExtensionAmounts& e : listed) {
        built.push_back(*p.extend(s, end, e.method));
        running->add(e);
        CAPTURE(e.method);
        CHECK(running->total() == p.total_cum_of(built));
      }
      // A backend's bound on the union of all extensions holds (costs are never negative here
      // whenever it gives one).
      if (const auto bound = running->bound_of_all()) {
        REQUIRE(p.costs_never_negative());
        CHECK(*bound >= running->total());
      }
      CHECK_THROWS_AS(running->add({"no such method", 0, 0, 0}), bn::Error);
    }
  for (Summary s : starts)
    for (NearbyKind kind : bn::search::kNearbyKinds)
      for (const Rational& cutoff : cutoffs) {
        CAPTURE(s.id);
        CAPTURE(static_cast<int>(kind));
        CHECK(bn::search::zoom(p, s, kind, cutoff).shown == zoom_by_definition(p, s, kind, cutoff));
      }
}

}  // namespace

TEST_CASE("zooming on random trees gives exactly the definition's result on the naive profile, either sign") {
  std::mt19937 rng(4);
  for (int tree = 0; tree < 40; ++tree) {
    const Stacks stacks = random_stacks(rng);
    for (bn::iface::Amount sign : {1, -1}) {
      bn::search::testing::FakeProfile p(stacks, sign);
      CHECK(p.costs_never_negative() == (sign > 0));
      check_all_starts(p);
    }
  }
}

TEST_CASE("zooming on random trees gives exactly the definition's result on the tree backend") {
  std::mt19937 rng(5);
  for (int tree = 0; tree < 150; ++tree) {
    const bn::calltree::CallTree t = tree_of(random_stacks(rng));
    bn::calltree::TreeProfile p(t);
    REQUIRE(p.costs_never_negative());
    check_all_starts(p);
  }
}
