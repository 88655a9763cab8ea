// Hand-computed comparisons (seed 004 sec. 2.2): signs, one-sided sequences, cum below base,
// exact normalisation, refused metrics, empty sides and a total of the opposite sign.

#include "bn/comparative/comparative_profile.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../calltree/stack_tree.h"
#include "bn/base/error.h"
#include "bn/calltree/tree_builder.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/overlap.h"

namespace {

using bn::comparative::ComparativeProfile;
using bn::comparative::Normalization;
using bn::iface::Summary;

// A is the paper's figure 2 (total 100). B calls c less directly but f under c a lot (total 158).
using bn::calltree::testing::figure2;
bn::calltree::CallTree other_run() {
  return bn::calltree::testing::tree_from_stacks({{"a", 1}, {"a;b", 2}, {"a;b;c", 3}, {"a;c", 2}, {"a;c;f", 150}});
}

Summary path(ComparativeProfile& c, std::vector<std::string_view> calls) {
  const auto s = c.path_summary(calls);
  REQUIRE(s.has_value());
  return *s;
}

std::string exact(ComparativeProfile& c, bn::iface::Amount a) { return bn::iface::exact_string(a, c.denominator()); }

}  // namespace

TEST_CASE("numbers are A minus B and cum may fall below base without clamping") {
  const auto ta = figure2(), tb = other_run();
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b);
  const Summary s = path(c, {"c"});
  CHECK(c.base_of(s) == 15 - 5);
  CHECK(c.cum_of(s) == 97 - 155);
  CHECK(c.cum_of(s) < c.base_of(s));
  CHECK(c.total() == 100 - 158);
  CHECK(c.denominator() == 1);
  CHECK(c.normalization_text() == "none");
  CHECK(c.notes().empty());
  const auto sides = c.sides(s);
  REQUIRE(sides.has_value());
  CHECK(sides->a_cum == 97);
  CHECK(sides->b_cum == 155);
  CHECK(sides->a_total == 100);
  CHECK(sides->b_total == 158);
}

TEST_CASE("extension lists are the union of both sides and one-sided sequences count zero on the other") {
  const auto ta = figure2(), tb = other_run();
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b);
  const Summary s = path(c, {"c"});
  CHECK(c.bottom_extensions(s) == std::vector<std::string_view>{"d", "e", "f"});
  CHECK(c.top_extensions(s) == std::vector<std::string_view>{"a", "b"});

  const auto only_a = c.extend_bottom(s, "d");
  REQUIRE(only_a.has_value());
  CHECK(c.cum_of(*only_a) == 10 + 50);  // along c, then d
  CHECK(c.sides(*only_a)->in_a);
  CHECK_FALSE(c.sides(*only_a)->in_b);

  const auto only_b = c.extend_bottom(s, "f");
  REQUIRE(only_b.has_value());
  CHECK(c.cum_of(*only_b) == -(2 + 150));
  CHECK(c.base_of(*only_b) == -(2 + 150));
  CHECK_FALSE(c.sides(*only_b)->in_a);
  // A sequence without roots in B has no extension with roots in B.
  CHECK_FALSE(c.extend_bottom(*only_b, "d").has_value());
  CHECK_FALSE(c.extend_bottom(s, "zzz").has_value());
  CHECK(c.initial_summaries().size() == 6);
}

TEST_CASE("trimming a sequence absent from B finds the trimmed sequence that B does have") {
  const auto ta = figure2(), tb = other_run();
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b);
  const Summary bcd = path(c, {"b", "c", "d"});
  CHECK_FALSE(c.sides(bcd)->in_b);
  const auto bc = c.trim_bottom(bcd);
  REQUIRE(bc.has_value());
  CHECK(c.sides(*bc)->in_b);
  CHECK(c.cum_of(*bc) == 60 - 3);
  CHECK(*bc == path(c, {"b", "c"}));
}

TEST_CASE("normalising to A's total scales B exactly and the total difference becomes zero") {
  const auto ta = figure2(), tb = other_run();
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b, {{Normalization::Kind::total, 1}, false});
  const Summary s = path(c, {"c"});
  // 97 - (100/158)·155 = -87/79
  CHECK(exact(c, c.cum_of(s)) == "-87/79");
  CHECK(c.total() == 0);
  CHECK(c.normalization_text() == "total (B × 50/79)");
  CHECK(exact(c, c.sides(s)->b_total) == "100");
  // With nothing to be a percentage of, percentages are of A's total.
  CHECK(exact(c, c.percent_base().amount) == "100");
  CHECK(c.percent_base().name == "A");
}

TEST_CASE("a user scale factor is applied exactly") {
  const auto ta = figure2(), tb = other_run();
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b, {{Normalization::Kind::scale, bn::comparative::parse_scale_factor("0.5")}, false});
  CHECK(exact(c, c.cum_of(path(c, {"c"}))) == "39/2");  // 97 - 155/2
  CHECK(exact(c, c.total()) == "21");                   // 100 - 79
  CHECK(c.normalization_text() == "scale (B × 1/2)");
  // 21 samples of difference against a standard error of sqrt(100 + 158/4): |z| = 1.8, within
  // sampling noise (noise.h), so percentages are of A's total, and the reason says so.
  CHECK(exact(c, c.percent_base().amount) == "100");
  CHECK(c.percent_base().name == "A");
  CHECK(c.percent_base_reason() == "the total difference is within sampling noise (|z| = 1.8 < 4)");
}

TEST_CASE("profiles of different metrics are refused unless forced") {
  const auto ta = figure2();
  bn::calltree::TreeBuilder builder;
  const bn::calltree::MethodId frames[] = {builder.intern("a"), builder.intern("c")};
  builder.add_stack(frames, 7);
  bn::calltree::Metadata md;
  md.metric = "cpu-time";
  md.unit = "ns";
  const auto tb = std::move(builder).build(md);
  bn::calltree::TreeProfile a(ta), b(tb);
  try {
    ComparativeProfile c(a, b);
    FAIL("a comparison of samples with cpu-time was accepted");
  } catch (const bn::comparative::MetricMismatch& e) {
    const std::string message = e.what();
    CHECK(message.find("samples (samples)") != std::string::npos);
    CHECK(message.find("cpu-time (ns)") != std::string::npos);
  }
  ComparativeProfile forced(a, b, {{}, true});
  REQUIRE(forced.notes().size() == 1);
  CHECK(forced.notes()[0].find("forced comparison") == 0);
  CHECK(forced.metric().metric == "samples minus cpu-time");
  CHECK(forced.cum_of(path(forced, {"c"})) == 97 - 7);
}

TEST_CASE("an empty side is allowed and reported, and counts zero everywhere") {
  const auto ta = figure2();
  const auto empty = bn::calltree::testing::tree_from_stacks({});
  bn::calltree::TreeProfile a(ta), b(empty);
  ComparativeProfile c(a, b);
  REQUIRE(c.notes().size() == 1);
  CHECK(c.notes()[0].find("profile B is empty") == 0);
  CHECK(c.initial_summaries().size() == 5);
  const Summary s = path(c, {"c"});
  CHECK(c.cum_of(s) == 97);
  CHECK_FALSE(c.sides(s)->in_b);

  ComparativeProfile reversed(b, a);
  CHECK(reversed.notes()[0].find("profile A is empty") == 0);
  CHECK(reversed.cum_of(path(reversed, {"c"})) == -97);
  CHECK(reversed.total() == -100);
  CHECK_THROWS_AS(ComparativeProfile(a, b, {{Normalization::Kind::total, 1}, false}), bn::Error);
}

TEST_CASE("a total difference of the opposite sign to a larger method difference is reported") {
  // Checks cost +8000 in A, a shorter GC saves 9000: the total is -1000, beyond noise, and
  // percentages of it would print check as -800%, so they are of A's total.
  const auto ta = bn::calltree::testing::tree_from_stacks({{"main;check", 8000}, {"main;work", 10000}, {"gc", 1000}});
  const auto tb = bn::calltree::testing::tree_from_stacks({{"main;work", 10000}, {"gc", 10000}});
  bn::calltree::TreeProfile a(ta), b(tb);
  ComparativeProfile c(a, b);
  CHECK(c.total() == -1000);
  REQUIRE(c.opposite_sign());
  CHECK(c.path_of(*c.opposite_sign()).front() == "check");  // main ties at 8000; the first wins
  CHECK(c.percent_base().name == "A");
  CHECK(c.percent_base().amount == 19000);
  CHECK(c.percent_base_reason() ==
        "the total difference -1000 samples is of the opposite sign to the difference 8000 samples of check");

  // The opposite difference smaller than the total: percentages stay of the total, and the
  // summary's negative percentage reads as "won back".
  const auto small_check = bn::calltree::testing::tree_from_stacks({{"main;check", 800}, {"gc", 10000}});
  bn::calltree::TreeProfile s(small_check);
  ComparativeProfile smaller(s, b);  // total 10800 - 20000 = -9200
  CHECK_FALSE(smaller.opposite_sign());
  CHECK(smaller.percent_base().name == "total");

  // A larger opposite difference within noise does not count: check's 3 samples against none
  // (|z| 1.7) beside a total of -2.
  const auto ta2 = bn::calltree::testing::tree_from_stacks({{"check", 3}, {"work", 1000}});
  const auto tb2 = bn::calltree::testing::tree_from_stacks({{"work", 1005}});
  bn::calltree::TreeProfile a2(ta2), b2(tb2);
  ComparativeProfile noisy(a2, b2);
  CHECK_FALSE(noisy.opposite_sign());
}
