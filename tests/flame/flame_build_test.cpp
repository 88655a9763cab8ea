// The flame graph's data (flame/include/bn/flame/build.h): paper figure 2 drawn whole and as a
// sandwich, widths that add up, the focus's cum equal to the profile interface's on random
// recursive trees, the matched share equal to total_cum_of, comparisons and the width bound.

#include <doctest/doctest.h>

#include <random>
#include <set>

#include "bn/calltree/tree_profile.h"
#include "bn/flame/build.h"
#include "bn/flame/matched.h"
#include "calltree/stack_tree.h"

namespace bn::flame {
namespace {

using calltree::testing::figure2;
using calltree::testing::Stacks;
using calltree::testing::tree_from_stacks;

// "a;b;c" for the frame at i: its names from the root down (the root's own name first).
std::string path_of(const FlameGraph& g, const FlamePart& p, std::size_t i) {
  std::vector<std::string> names;
  std::uint32_t want = p.depth[i];
  // In preorder the nearest earlier frame one level up is the parent.
  for (std::size_t j = i + 1; j-- > 0;)
    if (p.depth[j] == want) {
      names.push_back(g.names[p.name[j]]);
      if (want-- == 0) break;
    }
  std::string text;
  for (auto it = names.rbegin(); it != names.rend(); ++it) text += (text.empty() ? "" : ";") + *it;
  return text;
}

// Frame by path, e.g. "all;a;b".
std::size_t frame(const FlameGraph& g, const FlamePart& p, const std::string& path) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (path_of(g, p, i) == path) return i;
  FAIL("no frame " << path);
  return 0;
}

// Every frame's total is its self plus its children's totals (each run).
void check_sums(const FlamePart& p) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    Amount a = p.self[i], b = p.comparison() ? p.b_self[i] : 0;
    for (std::size_t c = i + 1; c < p.subtree_end(i); c = p.subtree_end(c)) {
      a += p.total[c];
      if (p.comparison()) b += p.b_total[c];
    }
    CHECK(a == p.total[i]);
    if (p.comparison()) CHECK(b == p.b_total[i]);
  }
}

TEST_CASE("figure 2 whole: the call tree with exact totals and selves") {
  const calltree::CallTree tree = figure2();
  const FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {});
  CHECK(g.callees.size() == 7);
  CHECK(!g.callers);
  CHECK(g.callees.total[0] == 100);
  CHECK(g.callees.total[frame(g, g.callees, "all;a;b;c")] == 60);
  CHECK(g.callees.self[frame(g, g.callees, "all;a;b;c")] == 10);
  CHECK(g.callees.total[frame(g, g.callees, "all;a;c")] == 37);
  check_sums(g.callees);
}

TEST_CASE("figure 2 sandwich of [c]: cum 97 both ways, d and e below, b;a and a above") {
  const calltree::CallTree tree = figure2();
  const FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {.focus = {"c"}});
  REQUIRE(g.callers);
  CHECK(g.callees.total[0] == 97);
  CHECK(g.callees.self[0] == 15);  // base([c]) = 15 (seed 004 sec. 2.2)
  CHECK(g.callees.total[frame(g, g.callees, "c;d")] == 50);
  CHECK(g.callees.total[frame(g, g.callees, "c;e")] == 32);
  CHECK(g.callers->total[0] == 97);
  CHECK(g.callers->total[frame(g, *g.callers, "c;b")] == 60);
  CHECK(g.callers->total[frame(g, *g.callers, "c;b;a")] == 60);
  CHECK(g.callers->total[frame(g, *g.callers, "c;a")] == 37);
  check_sums(g.callees);
  check_sums(*g.callers);
}

// A view's typed time refines the frame above it (docs/views.md, "Base in a view"): it is drawn
// below the frame, and counted in the frame's base, as `path` counts it.
TEST_CASE("with typed time below a frame, its base holds the typed time drawn below it") {
  const calltree::CallTree tree =
      tree_from_stacks({{"main;work", 1}, {"main;work;:RUN", 3}, {"main;work;:WAIT", 5}}, {":RUN", ":WAIT"});
  const FlameGraph whole = build_flame({.tree = &tree}, std::nullopt, {});
  CHECK(whole.callees.total[frame(whole, whole.callees, "all;main;work")] == 9);
  CHECK(whole.callees.self[frame(whole, whole.callees, "all;main;work")] == 9);
  CHECK(whole.callees.total[frame(whole, whole.callees, "all;main;work;:RUN")] == 3);
  CHECK(whole.callees.self[frame(whole, whole.callees, "all;main;work;:RUN")] == 0);
  const FlameGraph focused = build_flame({.tree = &tree}, std::nullopt, {.focus = {"work"}});
  CHECK(focused.callees.total[0] == 9);
  CHECK(focused.callees.self[0] == 9);  // base([work]) in a view
}

TEST_CASE("a focus that labels no path is an error naming it") {
  const calltree::CallTree tree = figure2();
  CHECK_THROWS_WITH(build_flame({.tree = &tree}, std::nullopt, {.focus = {"d", "c"}}), "no call path is labelled d;c");
  CHECK_THROWS_WITH(build_flame({.tree = &tree}, std::nullopt, {.focus = {"zz"}}), "no call path is labelled zz");
}

Stacks random_stacks(std::mt19937& rng) {
  Stacks stacks;
  const int letters = std::uniform_int_distribution<int>(1, 4)(rng);
  std::uniform_int_distribution<int> depth(1, 9), letter(0, letters - 1), cost(0, 40);
  for (int s = std::uniform_int_distribution<int>(1, 30)(rng); s > 0; --s) {
    std::string stack;
    for (int d = depth(rng); d > 0; --d) stack += (stack.empty() ? "" : ";") + std::string(1, 'a' + letter(rng));
    stacks.push_back({stack, cost(rng)});
  }
  return stacks;
}

TEST_CASE("on random recursive trees the focus's cum is the interface's, both ways, and widths add up") {
  std::mt19937 rng(18);
  for (int round = 0; round < 300; ++round) {
    const calltree::CallTree tree = tree_from_stacks(random_stacks(rng));
    calltree::TreeProfile profile(tree);
    // Every summary of length 1 and 2 that exists.
    for (const iface::Summary s : profile.initial_summaries()) {
      std::vector<iface::Summary> focus{s};
      for (const std::string_view m : profile.bottom_extensions(s)) focus.push_back(*profile.extend_bottom(s, m));
      for (const iface::Summary f : focus) {
        const std::vector<std::string_view> calls = profile.path_of(f);
        CAPTURE(round);
        const FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {.focus = {calls.begin(), calls.end()}});
        CHECK(g.callees.total[0] == profile.cum_of(f));
        CHECK(g.callers->total[0] == profile.cum_of(f));
        check_sums(g.callees);
        check_sums(*g.callers);
      }
    }
  }
}

TEST_CASE("on random recursive trees the matched share is total_cum_of the matched methods") {
  std::mt19937 rng(1818);
  for (int round = 0; round < 300; ++round) {
    const calltree::CallTree tree = tree_from_stacks(random_stacks(rng));
    calltree::TreeProfile profile(tree);
    const FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {});
    std::set<std::string> chosen;
    std::vector<iface::Summary> summaries;
    for (const iface::Summary s : profile.initial_summaries())
      if (rng() % 2 == 0) {
        chosen.insert(std::string(profile.path_of(s)[0]));
        summaries.push_back(s);
      }
    CAPTURE(round);
    CHECK(matched_value(g, [&](std::string_view name) { return chosen.contains(std::string(name)); }) ==
          profile.total_cum_of(summaries));
  }
}

TEST_CASE("a comparison keeps both runs, marks paths of one run, and scales B") {
  const calltree::CallTree a = tree_from_stacks({{"m;x", 10}, {"m;y", 4}});
  const calltree::CallTree b = tree_from_stacks({{"m;x", 3}, {"m;z", 5}});
  const FlameGraph g = build_flame({.tree = &a}, TreeSide{&b, [](Amount v) { return 2 * v; }}, {});
  REQUIRE(g.comparison());
  const std::size_t x = frame(g, g.callees, "all;m;x"), y = frame(g, g.callees, "all;m;y"),
                    z = frame(g, g.callees, "all;m;z");
  CHECK(g.callees.value(x) == 10 - 6);
  CHECK(g.callees.presence[x] == (kInA | kInB));
  CHECK(g.callees.presence[y] == kInA);
  CHECK(g.callees.presence[z] == kInB);
  CHECK(g.callees.value(z) == -10);
  CHECK(g.callees.value(0) == 14 - 16);
  check_sums(g.callees);
}

TEST_CASE("frames below the width bound merge into one per parent, costs exact") {
  const calltree::CallTree tree =
      tree_from_stacks({{"m;big", 1000}, {"m;s1", 1}, {"m;s2;deep", 1}, {"m;s3", 1}, {"n", 2}});
  const FlameGraph g = build_flame({.tree = &tree}, std::nullopt, {.min_width = 0.01});
  CHECK(g.merged_frames == 5);  // s1, s2, deep, s3 under m; n under the root
  CHECK(g.callees.total[frame(g, g.callees, "all;m;[4 frames merged]")] == 3);
  CHECK(g.callees.total[frame(g, g.callees, "all;[1 frames merged]")] == 2);
  CHECK(g.callees.total[0] == 1005);
  CHECK(!g.notes.empty());
  check_sums(g.callees);
}

TEST_CASE("labels mark the frames of their paths, in the focus too") {
  const calltree::CallTree tree = figure2();
  const std::vector<LabelPaths> labels{{"ab", {{"a", "b"}}}, {"cd", {{"c", "d"}}}};
  const FlameGraph whole = build_flame({.tree = &tree}, std::nullopt, {.labels = labels});
  CHECK(whole.callees.labels[frame(whole, whole.callees, "all;a")] == 1);
  CHECK(whole.callees.labels[frame(whole, whole.callees, "all;a;b")] == 1);
  CHECK(whole.callees.labels[frame(whole, whole.callees, "all;a;b;c")] == 2);
  CHECK(whole.callees.labels[frame(whole, whole.callees, "all;a;b;c;d")] == 2);
  CHECK(whole.callees.labels[frame(whole, whole.callees, "all;a;c")] == 0);
  const FlameGraph focus = build_flame({.tree = &tree}, std::nullopt, {.focus = {"c"}, .labels = labels});
  CHECK(focus.callees.labels[0] == 2);
  CHECK(focus.callees.labels[frame(focus, focus.callees, "c;d")] == 2);
  CHECK(focus.callees.labels[frame(focus, focus.callees, "c;e")] == 0);
  REQUIRE(focus.labels.size() == 2);
  CHECK(focus.labels[0].color != focus.labels[1].color);
}

}  // namespace
}  // namespace bn::flame
