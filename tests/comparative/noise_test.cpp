// The two-sample test of a comparison's differences (issue 17, noise.h, docs/compare.md "Noise"):
// its exact values, and two independent samplings of one generated profile, which differ only by
// noise: no summary's difference may be marked significant, while a real difference is.
#include "bn/iface/noise.h"

#include <doctest/doctest.h>

#include <random>
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
// of sample counts with the same tree; `extra` more samples land on `hot` (a real difference).
CallTree sampled(const CallTree& shape, int samples, std::mt19937_64& rng, NodeId hot = 0, int extra = 0) {
  std::vector<double> weights;
  for (NodeId n = 0; n < shape.node_count(); ++n) weights.push_back(static_cast<double>(shape.cost(n)));
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  std::vector<bn::calltree::Cost> counts(shape.node_count(), 0);
  for (int i = 0; i < samples; ++i) ++counts[pick(rng)];
  counts[hot] += extra;
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
  const CallTree hot = sampled(shape, 20'000, rng, leaf, 600);
  bn::calltree::TreeProfile ph(hot), pb(b);
  bn::comparative::ComparativeProfile diff(ph, pb, {});
  const auto s = diff.method_summary(shape.method_name(shape.method(leaf)));
  REQUIRE(s);
  CHECK(diff.noise(*s)->significant());
}
