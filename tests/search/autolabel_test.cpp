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
#include "bn/search/idle_waits.h"
#include "bn/search/method_names.h"
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
  // program's trunk (javac: Main.compile also loads a class); its work splits into y and z. s,
  // under ten samples, is noise.
  FakeProfile side({{"r;m;x;y", 600}, {"r;m;x;z", 390}, {"r;m;s", 10}});
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

TEST_CASE("a summary that passes its cost to one callee is not proposed, the callee's summary is") {
  // d (two callers, so no trunk) has no cost of its own and calls only e, which calls f for 95
  // of its 97: zooming passes through both.
  FakeProfile p({{"t1;d;e;f", 50}, {"t2;d;e;f", 45}, {"t1;d;e;g", 2}, {"t1;h", 30}, {"t2;h", 20}});
  const auto r = bn::search::autolabel(p, asking(15));
  const Paths got = proposed(p, r);
  CHECK(std::find(got.begin(), got.end(), std::vector<std::string_view>{"d"}) == got.end());
  CHECK(std::find(got.begin(), got.end(), std::vector<std::string_view>{"d", "e", "f"}) != got.end());
  CHECK(r.skipped.too_general > 0);
}

TEST_CASE("a recursive dispatcher is no proposal, however little of its work the candidates reach") {
  // E calls T calls E again (apply-templates in an XSLT processor); all the work is in ten
  // leaves below the recursion. With one proposal asked for, only two leaves are suggested, so
  // the candidates below [E;T] hold a fifth of it: it is still no code to change, only a
  // chain that passes its cost on.
  std::vector<std::pair<std::string, Amount>> stacks;
  for (const std::string thread : {"t1", "t2"})
    for (int i = 0; i < 10; ++i) stacks.emplace_back(thread + ";E;T;E;T;w" + std::to_string(i), 5);
  FakeProfile p(stacks);
  const auto r = bn::search::autolabel(p, asking(1));
  REQUIRE(r.proposals.size() == 1);
  CHECK(p.path_of(r.proposals[0].summary).back().front() == 'w');
  CHECK(r.proposals[0].covered == 10);
}

TEST_CASE("a summary whose cost is in callees that are candidates themselves is not proposed") {
  // s has no cost of its own: a and b, both candidates (HighBase), hold all of it. [s] alone
  // would explain as much with one proposal, but names no code that spends it.
  FakeProfile p({{"t1;s;a", 25}, {"t2;s;a", 25}, {"t1;s;b", 25}, {"t2;s;b", 20}});
  const auto r = bn::search::autolabel(p, asking(15));
  const Paths got = proposed(p, r);
  CHECK(std::find(got.begin(), got.end(), std::vector<std::string_view>{"s"}) == got.end());
  REQUIRE(got.size() == 2);
  CHECK(got[0].back() == "a");
  CHECK(got[1].back() == "b");
  CHECK(r.proposals.back().covered == 95);
}

TEST_CASE("a summary that ends in an idle wait is not proposed, the work its thread waits for is") {
  // A tree of every thread in any state (wall time): workers wait for jobs in Object.wait most
  // of the time, the Finalizer in ReferenceQueue.remove; the jobs themselves are y and z.
  FakeProfile p({{"t1;Worker.run;Queue.take;java.lang.Object.wait", 60},
                 {"t2;Worker.run;Queue.take;java.lang.Object.wait", 50},
                 {"Finalizer.run;java.lang.ref.ReferenceQueue.remove", 40},
                 {"t1;Worker.run;Job.y", 30},
                 {"t2;Worker.run;Job.z", 20}});
  const auto r = bn::search::autolabel(p, asking(15));
  CHECK(proposed(p, r) == Paths{{"Job.y"}, {"Job.z"}});
  CHECK(r.skipped.idle_waits > 0);
}

TEST_CASE("in a Thread View a wait to enter a monitor is proposed, a wait for work is not") {
  // Woken from Object.wait, a thread takes its monitor back (:MONITOR): contention, which the
  // holder's code causes; waiting to be woken (:WAIT) is idle.
  FakeProfile p({{"t1;Sender.run;Mailbox.take;java.lang.Object.wait;:MONITOR", 35},
                 {"t2;Sender.run;Mailbox.take;java.lang.Object.wait;:MONITOR", 35},
                 {"t1;Sender.run;Mailbox.take;java.lang.Object.wait;:WAIT", 20},
                 {"t2;Sender.run;Mailbox.take;java.lang.Object.wait;:WAIT", 10}});
  const auto r = bn::search::autolabel(p, asking(15));
  REQUIRE(r.proposals.size() == 1);
  CHECK(p.path_of(r.proposals[0].summary).back() == ":MONITOR");
  CHECK(r.proposals[0].covered == 70);
}

TEST_CASE("an idle wait is a table method or waiting time at the end of a path, whatever its signature") {
  using bn::search::ends_in_idle_wait;
  using Path = std::vector<std::string_view>;
  CHECK(ends_in_idle_wait(Path{"a.B.run", "java.lang.Thread.sleep"}));
  CHECK(ends_in_idle_wait(Path{"a.B.run", "java.lang.Object.wait(J)V"}));
  CHECK(ends_in_idle_wait(Path{"a.B.run", "jdk.internal.misc.Unsafe.park", ":WAIT"}));
  CHECK(ends_in_idle_wait(Path{"sun.nio.ch.Net.accept"}));
  // The CPU a wait used (a Server View), a monitor's contention, a holder that sleeps holding it.
  CHECK_FALSE(ends_in_idle_wait(Path{"a.B.run", "java.lang.Object.wait", ":RUN"}));
  CHECK_FALSE(ends_in_idle_wait(Path{"a.B.run", "java.lang.Object.wait", ":MONITOR"}));
  CHECK_FALSE(ends_in_idle_wait(Path{":MONITOR", ":THREAD T", "@java.lang.Thread.sleep"}));
  CHECK_FALSE(ends_in_idle_wait(Path{"java.lang.Object.wait", "a.B.run"}));  // what it calls is not the wait
  CHECK_FALSE(ends_in_idle_wait(Path{}));
}

TEST_CASE("on random views no proposal is an idle wait, a pass-through or a HighBase find of base 0") {
  // Stacks as a Thread View's (seed 000 sec. 4): code frames, among them a wait, then usually a
  // type of time. Checked against the definitions written out naively on the fake's measures.
  std::mt19937 rng(38);
  std::uniform_int_distribution<int> count(4, 16), depth(1, 4), method(0, 5), cost(1, 9), thread(0, 2), type(0, 3);
  const std::string_view kTypes[] = {":RUN", ":WAIT", ":MONITOR", ""};
  const bn::iface::Rational cutoff{19, 20};
  for (int round = 0; round < 80; ++round) {
    std::vector<std::pair<std::string, Amount>> stacks;
    for (int i = count(rng); i > 0; --i) {
      std::string stack = "T" + std::to_string(thread(rng));
      for (int d = depth(rng); d > 0; --d) {
        const int m = method(rng);
        stack += m == 5 ? ";java.lang.Object.wait" : ";" + std::string(1, static_cast<char>('a' + m));
      }
      if (const std::string_view t = kTypes[type(rng)]; !t.empty()) stack += ";" + std::string(t);
      stacks.emplace_back(stack, cost(rng));
    }
    FakeProfile p(stacks);
    CAPTURE(round);
    const auto r = bn::search::autolabel(p, asking(3));
    for (const auto& proposal : r.proposals) {
      const auto path = p.path_of(proposal.summary);
      INFO(bn::search::display_path(path, bn::search::NameStyle::kFull));
      CHECK(path.back() != ":WAIT");
      CHECK(path.back() != "java.lang.Object.wait");
      if (proposal.origin.suggester == bn::search::Suggester::kHighBase)
        CHECK(p.base_of(proposal.origin.suggestion) != 0);
      // A pass-through: no own cost to speak of (its base and the time types just below it), and
      // one callee that is code holding the cutoff share of it.
      const Amount cum = p.cum_of(proposal.summary);
      Amount own = p.base_of(proposal.summary);
      bool one_callee_holds = false;
      for (const std::string_view callee : p.bottom_extensions(proposal.summary)) {
        const Amount callee_cum = p.cum_of(*p.extend_bottom(proposal.summary, callee));
        if (callee.starts_with(':'))
          own += callee_cum;
        else if (callee != path.back() && bn::iface::to_rational(callee_cum) >= cutoff * bn::iface::to_rational(cum))
          one_callee_holds = true;
      }
      CHECK_FALSE((bn::iface::to_rational(own) <= (1 - cutoff) * bn::iface::to_rational(cum) && one_callee_holds));
    }
    if (!r.proposals.empty()) CHECK(r.proposals.back().covered <= p.total());  // no cost is negative
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

TEST_CASE("a cost of under ten samples is noise and never proposed") {
  // Seed 000 sec. 5.1: b's 9 samples are within random noise, though b overlaps nothing.
  FakeProfile p({{"t1;a", 50}, {"t2;a", 40}, {"t1;b", 9}, {"t2;c", 10}});
  const auto r = bn::search::autolabel(p, asking(15));
  CHECK(proposed(p, r) == Paths{{"a"}, {"c"}});
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
