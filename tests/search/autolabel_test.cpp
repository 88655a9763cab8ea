// autolabel on the naive fake profile: hand-made trees whose best set is known, the
// trunk rule, and on random trees the proposals against a brute-force search over the same
// candidates (every subset of at most N, overlap asked by the sec. 2.1 definition).
#include "bn/search/autolabel.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "bn/iface/overlap.h"
#include "fake_profile.h"

using bn::iface::Amount;
using bn::iface::Summary;
using bn::search::AutolabelOptions;
using bn::search::testing::FakeProfile;

namespace {

using Paths = std::vector<std::vector<std::string_view>>;

Paths proposed(FakeProfile& p, const bn::search::AutolabelResult& r) {
  Paths out;
  for (const auto& proposal : r.proposals) out.push_back(p.path_of(proposal.summary));
  return out;
}

AutolabelOptions asking(std::size_t n) {
  AutolabelOptions o;
  o.count = n;
  return o;
}

// The trap (tests/golden/autolabel_trap.collapsed): [m] has the highest cum (60) but
// overlaps [u] and [v] (46 each), which are disjoint and cover 92 together; the rest of u and v
// is spread over four leaves each (4 apiece). Two threads call u and v: neither is a trunk method.
std::vector<std::pair<std::string, Amount>> trap() {
  std::vector<std::pair<std::string, Amount>> stacks;
  for (const std::string thread : {"t1", "t2"})
    for (const auto& [caller, leaf] : {std::pair{"u", "k"}, std::pair{"v", "q"}}) {
      stacks.emplace_back(thread + ";" + caller + ";m", 15);
      for (int i = 1; i <= 4; ++i) stacks.emplace_back(thread + ";" + caller + ";" + leaf + std::to_string(i), 2);
    }
  return stacks;
}
const std::vector<std::pair<std::string, Amount>> kTrap = trap();

bool pairwise_disjoint(FakeProfile& p, const std::vector<Summary>& set) {
  for (std::size_t i = 0; i < set.size(); ++i)
    for (std::size_t j = i + 1; j < set.size(); ++j) {
      const Summary other[] = {set[j]};
      if (bn::iface::cum_overlap(p, set[i], other) != 0) return false;
    }
  return true;
}

// The heaviest weight of a pairwise disjoint subset of at most n candidates, by enumeration.
Amount brute_force_best(FakeProfile& p, const std::vector<bn::search::AutolabelCandidate>& c, std::size_t n,
                        std::size_t from = 0, std::vector<Summary> chosen = {}, Amount weight = 0) {
  Amount best = weight;
  if (chosen.size() == n) return best;
  for (std::size_t i = from; i < c.size(); ++i) {
    chosen.push_back(c[i].summary);
    if (pairwise_disjoint(p, chosen))
      best = std::max(best, brute_force_best(p, c, n, i + 1, chosen, weight + c[i].weight));
    chosen.pop_back();
  }
  return best;
}

}  // namespace

TEST_CASE("the highest-cum summary is passed over for two disjoint ones that cover more") {
  for (std::size_t n : {2, 3, 15}) {
    FakeProfile p(kTrap);
    CAPTURE(n);
    CHECK(proposed(p, bn::search::autolabel(p, asking(n))) == Paths{{"u"}, {"v"}});
  }
  FakeProfile p(kTrap);
  const auto r = bn::search::autolabel(p, asking(2));
  CHECK(proposed(p, r) == Paths{{"u"}, {"v"}});
  CHECK(r.best_of_candidates);
  REQUIRE(r.proposals.size() == 2);
  CHECK(r.proposals[0].covered == 46);
  CHECK(r.proposals[1].covered == 92);
  // Greedy by cum would take [m] (60) and then a leaf (4): 64.
  REQUIRE(r.proposals[0].instead_of);
  CHECK(p.path_of(*r.proposals[0].instead_of) == std::vector<std::string_view>{"m"});
}

TEST_CASE("thread roots and methods reached only through them are never proposed") {
  // r -> w -> x is a trunk (one caller each); x's work splits into y and z.
  FakeProfile p({{"r;w;x;y", 50}, {"r;w;x;z", 30}, {"r;w;x", 5}});
  const auto r = bn::search::autolabel(p, asking(15));
  REQUIRE(r.proposals.size() == 2);
  CHECK(p.path_of(r.proposals[0].summary).back() == "y");
  CHECK(p.path_of(r.proposals[1].summary).back() == "z");
  CHECK(r.skipped.too_general > 0);
  // Zooming from y through its callers reaches [r;w;x;y], whose along nodes include x (cum 55):
  // x's own 5 samples are the trunk's, not y's, so the trunk is trimmed off and the proposals
  // are [y] (50) and [z] (30).
  CHECK(proposed(p, r) == Paths{{"y"}, {"z"}});
  CHECK(r.proposals.back().covered == 80);
}

TEST_CASE("a trunk method stays trunk past a side call of its caller's and a call of its own name") {
  const auto last_methods = [](FakeProfile& p, const bn::search::AutolabelResult& r) {
    std::vector<std::string_view> out;
    for (const auto& proposal : r.proposals) out.push_back(p.path_of(proposal.summary).back());
    return out;
  };
  // main's one method m also makes a call of 1% (s): x, which carries the rest, is still the
  // program's trunk (javac: Main.compile also loads a class); its work splits into y and z.
  FakeProfile side({{"r;m;x;y", 60}, {"r;m;x;z", 39}, {"r;m;s", 1}});
  const auto with_side = bn::search::autolabel(side, asking(15));
  CHECK(last_methods(side, with_side) == std::vector<std::string_view>{"y", "z", "s"});
  // c calls an overload of its own name (compile(args) calls compile(args, context)): not a
  // second caller, so c is trunk too.
  FakeProfile own({{"r;c;c;y", 60}, {"r;c;c;z", 40}});
  const auto with_own = bn::search::autolabel(own, asking(15));
  CHECK(last_methods(own, with_own) == std::vector<std::string_view>{"y", "z"});
}

TEST_CASE("in a typed-time view the proposals name code, never a kind of time alone") {
  // A view's tree (seed 000 sec. 4): every stack ends in its type of time. [:RUN] and [:WAIT]
  // are the heaviest summaries and cover everything together, but name no code to change.
  FakeProfile p({{"t1;p;x;:RUN", 40}, {"t1;p;w;:WAIT", 10}, {"t2;q;y;:RUN", 30}, {"t2;q;z;:MONITOR;:THREAD T1", 20}});
  const auto r = bn::search::autolabel(p, asking(15));
  REQUIRE_FALSE(r.proposals.empty());
  for (const auto& proposal : r.proposals) {
    const auto path = p.path_of(proposal.summary);
    INFO(path.back());
    CHECK(std::any_of(path.begin(), path.end(), [](std::string_view m) { return !m.starts_with(':'); }));
  }
  CHECK(r.proposals.back().covered == 100);  // the code below each type covers the same
  CHECK(r.skipped.too_general >= 2);         // [:RUN] and [:WAIT] at least
}

TEST_CASE("a HighBase suggestion of base 0 is no reason given for a proposal") {
  // A typed-time view's tree: every Java method has base 0, so HighBase would rank them by cum
  // behind [:RUN], exactly as HighCum does; b is no bottom-up find.
  FakeProfile p({{"T1;a;b;:RUN", 60}, {"T2;a;b;:RUN", 20}, {"T1;a;c;:RUN", 40}, {"T2;c;:RUN", 10}});
  const auto r = bn::search::autolabel(p, asking(15));
  REQUIRE_FALSE(r.proposals.empty());
  for (const auto& proposal : r.proposals) {
    INFO(p.path_of(proposal.summary).back());
    if (proposal.origin.suggester == bn::search::Suggester::kHighBase)
      CHECK(p.base_of(proposal.origin.suggestion) != 0);
  }
}

TEST_CASE("proposals overlap no summary already labelled") {
  FakeProfile p(kTrap);
  AutolabelOptions o = asking(15);
  o.labelled = {*p.method_summary("u")};
  const auto r = bn::search::autolabel(p, o);
  std::vector<Summary> all = o.labelled;
  for (const auto& proposal : r.proposals) all.push_back(proposal.summary);
  CHECK(pairwise_disjoint(p, all));
  CHECK(r.skipped.overlapping_labels > 0);
  CHECK(proposed(p, r) == Paths{{"v"}});  // all that is left outside [u], in one proposal
}

TEST_CASE("a candidate rejected as within noise is never proposed") {
  FakeProfile p(kTrap);
  AutolabelOptions o = asking(2);
  const Summary u = *p.method_summary("u");
  o.keep = [u](Summary s) { return s != u; };
  const auto r = bn::search::autolabel(p, o);
  CHECK_FALSE(r.proposals.empty());
  for (const auto& proposal : r.proposals) CHECK(proposal.summary != u);
}

TEST_CASE("on a negative total the proposals are the summaries that explain it") {
  FakeProfile p(kTrap, -1);
  const auto r = bn::search::autolabel(p, asking(2));
  CHECK(proposed(p, r) == Paths{{"u"}, {"v"}});
  CHECK(r.proposals.back().covered == -92);
}

TEST_CASE("on random trees the proposals are the heaviest disjoint set of the candidates, found twice the same") {
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> count(4, 14), depth(1, 5), method(0, 5), cost(0, 9), thread(0, 2);
  for (int round = 0; round < 60; ++round) {
    std::vector<std::pair<std::string, Amount>> stacks;
    for (int i = count(rng); i > 0; --i) {
      std::string stack = "T" + std::to_string(thread(rng));  // a thread's root
      for (int d = depth(rng); d > 0; --d) stack += ";" + std::string(1, static_cast<char>('a' + method(rng)));
      stacks.emplace_back(stack, cost(rng));
    }
    FakeProfile p(stacks, round % 3 == 2 ? -1 : 1);
    for (std::size_t n : {1, 2, 3}) {
      CAPTURE(round);
      CAPTURE(n);
      const auto r = bn::search::autolabel(p, asking(n));
      CHECK(r.proposals.size() <= n);
      std::vector<Summary> set;
      Amount weight = 0;
      for (const auto& proposal : r.proposals) {
        set.push_back(proposal.summary);
        weight += bn::search::autolabel_weight(p, proposal.summary);
        CHECK(proposal.covered == p.total_cum_of(set));
        CHECK(p.path_of(proposal.summary).back().front() != 'T');  // thread roots are trunk methods
      }
      CHECK(pairwise_disjoint(p, set));
      REQUIRE(r.best_of_candidates);
      CHECK(weight == brute_force_best(p, bn::search::autolabel_candidates(p, asking(n)).list, n));
      CHECK(proposed(p, bn::search::autolabel(p, asking(n))) == proposed(p, r));
    }
  }
}
