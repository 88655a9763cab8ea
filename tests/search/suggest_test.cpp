#include "bn/search/suggest.h"

#include <doctest/doctest.h>

#include "fake_profile.h"

using bn::search::Suggester;
using bn::search::testing::FakeProfile;
using bn::search::testing::figure2;

namespace {

std::vector<std::string_view> first_methods(FakeProfile& p, Suggester s) {
  std::vector<std::string_view> out;
  for (bn::iface::Summary x : bn::search::suggest(p, s).shown) out.push_back(p.path_of(x).front());
  return out;
}

}  // namespace

TEST_CASE("HighCum ranks the methods of figure 2 by cum") {
  FakeProfile p(figure2());
  CHECK(first_methods(p, Suggester::kHighCum) == std::vector<std::string_view>{"a", "c", "b", "d", "e"});
}

TEST_CASE("HighBase ranks by base, ties broken by cum then name") {
  FakeProfile p(figure2());
  // base: d 50, e 32, c 15, b 2, a 1.
  CHECK(first_methods(p, Suggester::kHighBase) == std::vector<std::string_view>{"d", "e", "c", "b", "a"});
}

TEST_CASE("suggesters rank by magnitude when every cost is negative") {
  FakeProfile p(figure2(), -1);
  CHECK(first_methods(p, Suggester::kHighCum) == std::vector<std::string_view>{"a", "c", "b", "d", "e"});
}

TEST_CASE("a suggester asked for the first N returns them in order and counts the rest") {
  FakeProfile p(figure2());
  const bn::search::Shortlist top = bn::search::suggest(p, Suggester::kHighCum, 2);
  REQUIRE(top.shown.size() == 2);
  CHECK(p.path_of(top.shown[0]).front() == "a");
  CHECK(p.path_of(top.shown[1]).front() == "c");
  CHECK(top.more == 3);
  CHECK(bn::search::suggest(p, Suggester::kHighCum, 0).more == 5);
}
