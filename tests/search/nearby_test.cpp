#include "bn/search/nearby.h"

#include <doctest/doctest.h>

#include <cstdint>

#include "bn/iface/overlap.h"
#include "fake_profile.h"

using bn::iface::Summary;
using bn::search::NearbyKind;
using bn::search::testing::FakeProfile;
using bn::search::testing::figure2;

namespace {

Summary at(FakeProfile& p, std::vector<std::string_view> path) { return *p.path_summary(path); }

std::vector<std::vector<std::string_view>> paths(FakeProfile& p, const std::vector<Summary>& list) {
  std::vector<std::vector<std::string_view>> out;
  for (Summary s : list) out.push_back(p.path_of(s));
  return out;
}

const bn::iface::Rational kDefaultCutoff(19, 20);

}  // namespace

TEST_CASE("one step lists every 1-method extension sorted by cum, largest first") {
  FakeProfile p(figure2());
  const Summary c = at(p, {"c"});
  CHECK(paths(p, bn::search::one_step(p, c, NearbyKind::kTopExtensions)) ==
        std::vector<std::vector<std::string_view>>{{"b", "c"}, {"a", "c"}});
  CHECK(paths(p, bn::search::one_step(p, c, NearbyKind::kBottomExtensions)) ==
        std::vector<std::vector<std::string_view>>{{"c", "d"}, {"c", "e"}});
  CHECK(bn::search::one_step(p, c, NearbyKind::kTrimTop).empty());
}

TEST_CASE("zooming from [c;d] lands on the 2-method top extension [a;b;c;d] as in seed 004 sec. 2.3") {
  FakeProfile p(figure2());
  const auto zoomed = bn::search::zoom(p, at(p, {"c", "d"}), NearbyKind::kTopExtensions, kDefaultCutoff).shown;
  CHECK(paths(p, zoomed) == std::vector<std::vector<std::string_view>>{{"a", "b", "c", "d"}});
}

TEST_CASE("a zoom chain that runs out of candidates ends on the last summary reached") {
  FakeProfile p(figure2());
  // trim bottom of [a;b;c;d]: [a;b;c] (63) -> [a;b] (63) -> [a] (100), which cannot be trimmed.
  const auto zoomed = bn::search::zoom(p, at(p, {"a", "b", "c", "d"}), NearbyKind::kTrimBottom, kDefaultCutoff).shown;
  CHECK(paths(p, zoomed) == std::vector<std::vector<std::string_view>>{{"a"}});
}

TEST_CASE("zooming returns the empty list when no prefix of the candidates reaches the cutoff") {
  FakeProfile p(figure2());
  // trim top of [c;d] is [d] with cum 50 < 0.95 * 60 and nothing was zoomed through yet.
  CHECK(bn::search::zoom(p, at(p, {"c", "d"}), NearbyKind::kTrimTop, kDefaultCutoff).shown.empty());
  // With a low cutoff the same candidate is zoomed through and the chain ends on it.
  CHECK(paths(p, bn::search::zoom(p, at(p, {"c", "d"}), NearbyKind::kTrimTop, bn::iface::Rational(1, 2)).shown) ==
        std::vector<std::vector<std::string_view>>{{"d"}});
}

TEST_CASE("zooming takes the fewest candidates whose union reaches the cutoff") {
  FakeProfile p(figure2());
  const Summary c = at(p, {"c"});
  // C = 0.95 * 97 = 92.15: [b;c] alone has cum 62, together with [a;c] the union has 100.
  CHECK(bn::search::zoom(p, c, NearbyKind::kTopExtensions, kDefaultCutoff).shown.size() == 2);
  // A cutoff of 0.6 is reached by [b;c] alone, which is zoomed through to [a;b;c].
  CHECK(paths(p, bn::search::zoom(p, c, NearbyKind::kTopExtensions, bn::iface::Rational(3, 5)).shown) ==
        std::vector<std::vector<std::string_view>>{{"a", "b", "c"}});
}

TEST_CASE("zooming ranks and compares by absolute value when costs are negative") {
  FakeProfile p(figure2(), -1);
  const auto zoomed = bn::search::zoom(p, at(p, {"c", "d"}), NearbyKind::kTopExtensions, kDefaultCutoff).shown;
  CHECK(paths(p, zoomed) == std::vector<std::vector<std::string_view>>{{"a", "b", "c", "d"}});
  CHECK(p.cum_of(zoomed.front()) == -63);
}

TEST_CASE("nearby lists the four groups in order, zoomed or not") {
  FakeProfile p(figure2());
  const auto groups = bn::search::nearby(p, at(p, {"b", "c"}), false, kDefaultCutoff, SIZE_MAX);
  REQUIRE(groups.size() == 4);
  CHECK(groups[0].kind == NearbyKind::kTopExtensions);
  CHECK(paths(p, groups[2].summaries) == std::vector<std::vector<std::string_view>>{{"c"}});
  CHECK(paths(p, groups[3].summaries) == std::vector<std::vector<std::string_view>>{{"b"}});
}

TEST_CASE("the fewest reaching candidates are the same whether prefixes are skipped by their cum sums or all scanned") {
  const std::vector<std::pair<std::string, bn::iface::Amount>> fan{{"r;x1", 40}, {"r;x2", 20}, {"r;x3", 15},
                                                                   {"r;x4", 10}, {"r;x5", 10}, {"r;x6", 5}};
  // Positive costs let the scan skip prefixes whose cums sum below C; negated ones are all scanned.
  for (bn::iface::Amount sign : {1, -1}) {
    FakeProfile p(fan, sign);
    const Summary r = *p.method_summary("r");
    CHECK(bn::search::zoom(p, r, NearbyKind::kBottomExtensions, kDefaultCutoff).shown.size() == 5);  // 95 of 100
    CHECK(bn::search::zoom(p, r, NearbyKind::kBottomExtensions, bn::iface::Rational(7, 10)).shown.size() == 3);  // 75
    CHECK(bn::search::zoom(p, r, NearbyKind::kBottomExtensions, bn::iface::Rational(1, 100)).shown.size() == 1);
    CHECK(bn::search::zoom(p, r, NearbyKind::kBottomExtensions, bn::iface::Rational(101, 100)).shown.empty());
  }
}

TEST_CASE("a zoomed group cut to a limit keeps the heaviest of the chosen and counts the rest") {
  FakeProfile p({{"r;x1", 40}, {"r;x2", 20}, {"r;x3", 15}, {"r;x4", 10}, {"r;x5", 10}, {"r;x6", 5}});
  const auto cut = bn::search::zoom(p, *p.method_summary("r"), NearbyKind::kBottomExtensions, kDefaultCutoff, 2);
  CHECK(paths(p, cut.shown) == std::vector<std::vector<std::string_view>>{{"r", "x1"}, {"r", "x2"}});
  CHECK(cut.more == 3);  // x3, x4, x5 complete the 95 of 100
}

TEST_CASE("a limit keeps the heaviest nearby summaries in order and counts the rest, ties by call path") {
  const std::vector<std::pair<std::string, bn::iface::Amount>> fan{
      {"r;x6", 5}, {"r;x2", 20}, {"r;x5", 10}, {"r;x1", 40}, {"r;x4", 10}, {"r;x3", 15}, {"r;x7", 10}};
  FakeProfile p(fan);
  const Summary r = *p.method_summary("r");
  // The limit falls inside the run of three 10s: x4 and x5 come before x7 by call path.
  const auto groups = bn::search::nearby(p, r, false, kDefaultCutoff, 5);
  CHECK(paths(p, groups[1].summaries) ==
        std::vector<std::vector<std::string_view>>{{"r", "x1"}, {"r", "x2"}, {"r", "x3"}, {"r", "x4"}, {"r", "x5"}});
  CHECK(groups[1].more == 2);
  // Without a limit the listing is one_step's full order.
  const auto all = bn::search::nearby(p, r, false, kDefaultCutoff, SIZE_MAX);
  CHECK(all[1].summaries == bn::search::one_step(p, r, NearbyKind::kBottomExtensions));
  CHECK(all[1].more == 0);
  // A zoomed group is cut the same way: 95 of 110 needs six of the seven extensions.
  const auto zoomed = bn::search::nearby(p, r, true, kDefaultCutoff, 4);
  CHECK(zoomed[1].summaries.size() == 4);
  CHECK(zoomed[1].more == 2);
}

TEST_CASE("a cutoff too long for 64-bit integers is compared exactly") {
  const std::vector<std::pair<std::string, bn::iface::Amount>> fan{{"r;x1", 50}, {"r;x2", 50}};
  FakeProfile p(fan);
  const Summary r = *p.method_summary("r");
  // Just above and just below 1/2, with a 31-digit denominator: x1 alone (50 of 100) is enough
  // only for the second.
  const boost::multiprecision::cpp_int big("1000000000000000000000000000000");
  const bn::iface::Rational above(big + 1, 2 * big), below(big - 1, 2 * big);
  CHECK(bn::search::zoom(p, r, NearbyKind::kBottomExtensions, above).shown.size() == 2);
  CHECK(paths(p, bn::search::zoom(p, r, NearbyKind::kBottomExtensions, below).shown) ==
        std::vector<std::vector<std::string_view>>{{"r", "x1"}});
}
