// The two-sample test of a comparison's differences (noise.h, docs/compare.md "Noise"):
// its exact values, and two independent samplings of one generated profile, which differ only by
// noise: no summary's difference may be marked significant, while a real difference is; and
// several runs per side, whose spread measures the noise of runs that scatter beyond Poisson.
#include "bn/iface/noise.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bn/calltree/synthetic_tree.h"
#include "bn/calltree/tree_builder.h"
#include "bn/calltree/tree_profile.h"
#include "bn/comparative/comparative_profile.h"

using bn::calltree::CallTree;
using bn::calltree::NodeId;
using bn::iface::Rational;

namespace {

// `samples` draws of a node with probability proportional to its cost in `shape`, as a profile
// of sample counts with the same tree; `extra` samples more land on each of its nodes.
CallTree sampled(const CallTree& shape, int samples, std::mt19937_64& rng,
                 const std::vector<std::pair<NodeId, int>>& extra = {}) {
  std::vector<double> weights;
  for (NodeId n = 0; n < shape.node_count(); ++n) weights.push_back(static_cast<double>(shape.cost(n)));
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  std::vector<bn::calltree::Cost> counts(shape.node_count(), 0);
  for (int i = 0; i < samples; ++i) ++counts[pick(rng)];
  for (const auto& [node, more] : extra) counts[node] += more;
  bn::calltree::TreeBuilder b;
  std::vector<NodeId> copy(shape.node_count(), 0);  // node of `shape` -> node of the copy
  for (NodeId n = 1; n < shape.node_count(); ++n) {
    copy[n] = b.child(copy[shape.parent(n)], b.intern(shape.method_name(shape.method(n))));
    b.add_cost(copy[n], counts[n]);
  }
  bn::calltree::Metadata md;
  md.metric = "samples";
  md.unit = "samples";
  return std::move(b).build(md);
}

}  // namespace

TEST_CASE("the z-score of a difference is exact and significant from 4 up") {
  // a = 100, b = 36: (100 - 36)^2 / (100 + 36) = 4096/136.
  const auto big = bn::iface::difference_noise(100, 36, 1);
  CHECK(big.z_squared == Rational(4096, 136));
  CHECK(big.significant());
  CHECK(big.z_text() == "5.5");
  CHECK_FALSE(bn::iface::difference_noise(20, 10, 1).significant());  // 100/30
  // B weighed by k = 2: (40 - 2·4)^2 / (40 + 4·4) = 1024/56, |z| = 4.28.
  CHECK(bn::iface::difference_noise(40, 4, 2).z_squared == Rational(1024, 56));
  CHECK(bn::iface::difference_noise(0, 0, 1).z_squared == 0);
  // Exactly 4: 16 samples against none.
  CHECK(bn::iface::difference_noise(16, 0, 1).significant());
  CHECK_FALSE(bn::iface::difference_noise(15, 0, 1).significant());
}

TEST_CASE("one run a side: z squared equals the definition in rationals, small parts or large") {
  // The 128-bit path (noise.cpp) against (a - k·b)² / (a + k²·b) computed here in rationals, for
  // counts and weights of every size: parts near 2^63 leave 128 bits and take the general path.
  std::mt19937_64 rng(2004);
  const auto any = [&](int bits) {
    const auto top = bits >= 63 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << bits);
    return std::uniform_int_distribution<std::int64_t>(0, top)(rng);
  };
  for (int i = 0; i < 3000; ++i) {
    const int bits = std::uniform_int_distribution<int>(1, 63)(rng);
    const auto part = [&] { return any(bits); };
    const Rational a(part() - (i % 7 == 0 ? part() : 0), 1 + part() % (i % 3 == 0 ? 1 : 1000));
    const Rational b(part(), 1 + part() % (i % 5 == 0 ? 1 : 1000));
    const Rational k(1 + part(), 1 + part());
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(k);
    const Rational variance = a + k * k * b;
    const Rational expected = variance == 0 ? Rational(0) : (a - k * b) * (a - k * b) / variance;
    const bn::iface::Noise n = bn::iface::difference_noise(a, b, k);
    CHECK(n.z_squared == expected);
    CHECK(n.a_runs == 1);
    CHECK(n.b_runs == 1);
  }
}

TEST_CASE("two samplings of one profile differ only by noise; an added hot path does not") {
  const CallTree shape = bn::calltree::generate_synthetic_tree({2'000, 1});
  std::mt19937_64 rng(17);
  const CallTree a = sampled(shape, 20'000, rng);
  const CallTree b = sampled(shape, 20'000, rng);
  for (const auto normalization :
       {bn::comparative::Normalization::Kind::none, bn::comparative::Normalization::Kind::total}) {
    bn::calltree::TreeProfile pa(a), pb(b);
    bn::comparative::ComparativeProfile diff(pa, pb, {{normalization, 1}, false});
    std::size_t tested = 0;
    for (const bn::iface::Summary s : diff.initial_summaries()) {
      const auto noise = diff.noise(s);
      REQUIRE(noise);
      CAPTURE(diff.path_of(s).front());
      CHECK_FALSE(noise->significant());
      for (const std::string_view m : diff.bottom_extensions(s)) {
        CHECK_FALSE(diff.noise(*diff.extend_bottom(s, m))->significant());
        ++tested;
      }
      ++tested;
    }
    CHECK(tested > 500);
    CHECK(!diff.total_noise()->significant());
    CHECK(diff.percent_base().name == "A");
    CHECK(!diff.percent_base_reason().empty());
  }

  // The same, with 600 more samples in A on one leaf: that leaf's method is beyond noise.
  NodeId leaf = 1;
  while (!shape.is_leaf(leaf) || shape.cost(leaf) == 0) ++leaf;
  const CallTree hot = sampled(shape, 20'000, rng, {{leaf, 600}});
  bn::calltree::TreeProfile ph(hot), pb(b);
  bn::comparative::ComparativeProfile diff(ph, pb, {});
  const auto s = diff.method_summary(shape.method_name(shape.method(leaf)));
  REQUIRE(s);
  CHECK(diff.noise(*s)->significant());
}

TEST_CASE("with several runs a side's variance is the larger of Poisson's and the runs' spread") {
  // A: 10, 20, 30: mean 20, Poisson 20/3, spread ((-10)² + 0 + 10²)/2 / 3 = 100/3 (used).
  // B: one run of 10: Poisson 10. z² = (20 - 10)² / (100/3 + 10) = 30/13.
  const Rational a[] = {10, 20, 30}, b[] = {10};
  const bn::iface::Noise n = bn::iface::difference_noise(a, b, 1);
  CHECK(n.z_squared == Rational(30, 13));
  CHECK(n.a_estimate == bn::iface::VarianceEstimate::runs);
  CHECK(n.b_estimate == bn::iface::VarianceEstimate::poisson);
  CHECK(n.a_runs == 3);
  CHECK(n.several_runs());
  // Runs closer together than Poisson allows: 99, 100, 101 has spread 1/3 < 100/3, so Poisson.
  const Rational close[] = {99, 100, 101}, none[] = {0, 0};
  const bn::iface::Noise p = bn::iface::difference_noise(close, none, 1);
  CHECK(p.a_estimate == bn::iface::VarianceEstimate::poisson);
  CHECK(p.z_squared == Rational(100 * 100, 100 / Rational(3)));  // 300
  CHECK_FALSE(bn::iface::difference_noise(b, b, 1).several_runs());
}

TEST_CASE("several runs per side: run-to-run noise beyond Poisson is measured, a real difference still stands out") {
  // Each run adds its own burst of up to 3000 samples on one leaf (a GC or JIT thread), far
  // beyond the Poisson noise of its count, so a single run per side would mark it.
  const CallTree shape = bn::calltree::generate_synthetic_tree({2'000, 1});
  NodeId burst = 1, hot = 0;
  while (!shape.is_leaf(burst) || shape.cost(burst) == 0) ++burst;
  for (hot = burst + 1; !shape.is_leaf(hot) || shape.cost(hot) == 0 || shape.method(hot) == shape.method(burst);) ++hot;
  std::mt19937_64 rng(29);
  std::uniform_int_distribution<int> burst_size(0, 3000);
  const auto runs = [&](int count, int extra_on_hot) {
    std::vector<CallTree> out;
    for (int i = 0; i < count; ++i) {
      out.push_back(sampled(shape, 20'000, rng, {{burst, burst_size(rng)}, {hot, extra_on_hot}}));
    }
    return out;
  };
  const std::string burst_method(shape.method_name(shape.method(burst)));
  const std::string hot_method(shape.method_name(shape.method(hot)));
  const std::vector<CallTree> a = runs(4, 0), b = runs(4, 0);
  std::vector<std::unique_ptr<bn::calltree::TreeProfile>> owned;
  const auto profiles = [&](const std::vector<CallTree>& trees) {
    std::vector<bn::iface::Profile*> out;
    for (const CallTree& t : trees)
      out.push_back(owned.emplace_back(std::make_unique<bn::calltree::TreeProfile>(t)).get());
    return out;
  };
  bn::comparative::ComparativeProfile diff(profiles(a), profiles(b), {});
  std::size_t tested = 0, from_runs = 0;
  for (const bn::iface::Summary s : diff.initial_summaries()) {
    const auto noise = diff.noise(s);
    REQUIRE(noise);
    CAPTURE(diff.path_of(s).front());
    CHECK_FALSE(noise->significant());
    from_runs += noise->a_estimate == bn::iface::VarianceEstimate::runs;
    ++tested;
  }
  CHECK(tested > 100);
  CHECK(from_runs > 0);
  const auto burst_noise = diff.noise(*diff.method_summary(burst_method));
  CHECK(burst_noise->a_estimate == bn::iface::VarianceEstimate::runs);
  CHECK(burst_noise->b_estimate == bn::iface::VarianceEstimate::runs);

  // One run per side would have called the bursts a difference (the point of several runs).
  bn::calltree::TreeProfile first_a(a[0]), first_b(b[0]);
  bool single_marks_burst = false;
  for (std::size_t i = 0; i < a.size() && !single_marks_burst; ++i)
    for (std::size_t j = 0; j < b.size() && !single_marks_burst; ++j) {
      bn::calltree::TreeProfile pa(a[i]), pb(b[j]);
      bn::comparative::ComparativeProfile one(pa, pb, {});
      single_marks_burst = one.noise(*one.method_summary(burst_method))->significant();
    }
  CHECK(single_marks_burst);

  // A real difference: 1500 more samples on another leaf in every run of A.
  const std::vector<CallTree> slower = runs(4, 1500);
  bn::comparative::ComparativeProfile real(profiles(slower), profiles(b), {});
  CHECK(real.noise(*real.method_summary(hot_method))->significant());
  CHECK_FALSE(real.noise(*real.method_summary(burst_method))->significant());
}
