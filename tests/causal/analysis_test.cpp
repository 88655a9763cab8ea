// The analysis of causal experiments on examples computed by hand (docs/causal.md): the ratio of
// sums, the pooled baseline, delays taken out of the duration, the summary band, each flag and
// the ranking.

#include "bn/causal/analysis.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bn/base/error.h"
#include "causal_builder.h"

namespace bc = bn::causal;
using bc::test::add;
using bc::test::causal_data;

namespace {

// Two baseline experiments of period 100 ns per unit, on target 0.
bn::calltree::CausalData with_baseline(std::size_t targets) {
  bn::calltree::CausalData data = causal_data(targets);
  add(data, 0, 0, 1000, 10);
  add(data, 0, 0, 1000, 10);
  return data;
}

const bc::TargetResult& result_of(const bc::CausalAnalysis& a, std::uint32_t target) {
  for (const bc::TargetResult& r : a.targets)
    if (r.target == target) return r;
  FAIL("no result for target " << target);
  return a.targets.front();
}

bool has(const std::vector<bc::Flag>& flags, bc::Flag f) {
  return std::find(flags.begin(), flags.end(), f) != flags.end();
}

}  // namespace

TEST_CASE("an effective period 20% shorter is a program 20% faster, delays taken out") {
  bn::calltree::CausalData data = with_baseline(1);
  // 1000 ns each, of which 200 ns of inserted pauses: 800 ns for 10 units, 80 ns per unit.
  add(data, 0, 50, 800, 10, 200);
  add(data, 0, 50, 800, 10, 200);
  const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.3});
  REQUIRE(a.targets.size() == 1);
  CHECK(a.baseline_experiments == 2);
  const bc::TargetResult& r = a.targets[0];
  REQUIRE(r.curve.size() == 2);
  CHECK(r.curve[0].speedup == 0);
  CHECK(*r.curve[0].estimate.speedup == doctest::Approx(0.0));
  CHECK(r.curve[1].speedup == 50);
  CHECK(*r.curve[1].estimate.speedup == doctest::Approx(0.2));
  // Identical experiments: every resample gives the estimate.
  REQUIRE(r.curve[1].estimate.interval);
  CHECK(r.curve[1].estimate.interval->low == doctest::Approx(0.2));
  CHECK(r.curve[1].estimate.interval->high == doctest::Approx(0.2));
  CHECK(*r.summary.speedup == doctest::Approx(0.2));
  CHECK(r.summary.experiments == 2);
  CHECK(has(r.flags, bc::Flag::too_few));
}

TEST_CASE("periods are ratios of sums, not means of ratios") {
  bn::calltree::CausalData data = with_baseline(1);
  // 400 ns for 4 units: 100 ns per unit as the baseline, though the mean of 200 and 66.7 is 133.
  add(data, 0, 40, 200, 1);
  add(data, 0, 40, 200, 3);
  const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.1});
  CHECK(*a.targets[0].summary.speedup == doctest::Approx(0.0));
}

TEST_CASE("the baseline pools every target's 0% experiments") {
  bn::calltree::CausalData data = causal_data(2);
  add(data, 0, 0, 1000, 10);
  add(data, 1, 0, 3000, 10);  // baseline: 4000 ns for 20 units, 200 per unit
  add(data, 1, 50, 1500, 10);
  const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.1, 0.1});
  CHECK(a.baseline_experiments == 2);
  CHECK(*result_of(a, 1).summary.speedup == doctest::Approx(0.25));
  // Target 0's own 0% point against the pool: 100 per unit against 200.
  CHECK(*result_of(a, 0).curve[0].estimate.speedup == doctest::Approx(0.5));
  // One experiment on either side: no interval.
  CHECK_FALSE(result_of(a, 1).summary.interval);
}

TEST_CASE("no progress in a group or in the baseline leaves no estimate") {
  bn::calltree::CausalData data = causal_data(1);
  add(data, 0, 0, 1000, 0);
  add(data, 0, 50, 1000, 5);
  CHECK_FALSE(bc::analyze(data, 0, std::vector<double>{0.1}).targets[0].summary.speedup);
  data = with_baseline(1);
  add(data, 0, 50, 1000, 0);
  add(data, 0, 55, 1000, 0);
  const bc::TargetResult r = bc::analyze(data, 0, std::vector<double>{0.1}).targets[0];
  CHECK_FALSE(r.summary.speedup);
  CHECK(r.summary.experiments == 2);
}

TEST_CASE("a flat curve of a costly target is off the critical path") {
  bn::calltree::CausalData data = with_baseline(1);
  for (std::uint32_t s : {40, 50, 60}) add(data, 0, s, 990, 10);  // 1%: under 0.25 × 0.5 × 40%
  const bc::TargetResult r = bc::analyze(data, 0, std::vector<double>{0.4}).targets[0];
  CHECK(r.flags == std::vector<bc::Flag>{bc::Flag::off_critical_path});
  // A cheap target that pays little is just cheap.
  CHECK(bc::analyze(data, 0, std::vector<double>{0.04}).targets[0].flags.empty());
}

TEST_CASE("a curve that stops rising past half is a plateau") {
  bn::calltree::CausalData data = with_baseline(1);
  for (std::uint32_t s : {40, 50, 60}) add(data, 0, s, 700, 10);   // 30%
  for (std::uint32_t s : {80, 90, 100}) add(data, 0, s, 650, 10);  // 35%: 5 points more, under 7.5
  const bc::TargetResult r = bc::analyze(data, 0, std::vector<double>{0.5}).targets[0];
  CHECK(*r.top.speedup == doctest::Approx(0.35));
  CHECK(r.flags == std::vector<bc::Flag>{bc::Flag::plateau});
  for (std::uint32_t s : {80, 90, 100}) add(data, 0, s, 300, 10);  // the top rises to 52.5%
  CHECK(bc::analyze(data, 0, std::vector<double>{0.5}).targets[0].flags.empty());
}

TEST_CASE("a point the program is slower at, with two experiments, is contention") {
  bn::calltree::CausalData data = with_baseline(1);
  for (std::uint32_t s : {40, 50, 60}) add(data, 0, s, 900, 10);
  add(data, 0, 20, 1200, 10);
  CHECK_FALSE(has(bc::analyze(data, 0, std::vector<double>{0.2}).targets[0].flags, bc::Flag::contention));
  add(data, 0, 20, 1200, 10);
  const bc::TargetResult r = bc::analyze(data, 0, std::vector<double>{0.2}).targets[0];
  CHECK(*r.curve[1].estimate.speedup == doctest::Approx(-0.2));
  CHECK(r.flags == std::vector<bc::Flag>{bc::Flag::contention});
}

TEST_CASE("targets rank by their summary, those without one last, ties by cost share") {
  bn::calltree::CausalData data = with_baseline(4);
  add(data, 0, 50, 900, 10);  // 10%
  add(data, 1, 50, 700, 10);  // 30%
  add(data, 2, 70, 500, 10);  // outside the band: no summary
  add(data, 3, 50, 900, 10);  // 10%, a larger cost share than target 0
  const bc::CausalAnalysis a = bc::analyze(data, 0, std::vector<double>{0.1, 0.1, 0.9, 0.2});
  std::vector<std::uint32_t> order;
  for (const bc::TargetResult& r : a.targets) order.push_back(r.target);
  CHECK(order == std::vector<std::uint32_t>{1, 3, 0, 2});
}

TEST_CASE("analyze refuses a point, an experiment or cost shares that do not fit the data") {
  bn::calltree::CausalData data = with_baseline(1);
  CHECK_THROWS_AS(bc::analyze(data, 1, std::vector<double>{0.1}), bn::Error);
  CHECK_THROWS_AS(bc::analyze(data, 0, std::vector<double>{}), bn::Error);
  add(data, 3, 50, 1, 1);
  CHECK_THROWS_AS(bc::analyze(data, 0, std::vector<double>{0.1}), bn::Error);
}

TEST_CASE("every flag has a name and a one-line explanation") {
  for (const bc::Flag f : bc::kAllFlags) {
    CHECK_FALSE(bc::flag_name(f).empty());
    CHECK(bc::flag_explanation(f).find('\n') == std::string_view::npos);
  }
}
