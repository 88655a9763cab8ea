// Property test: labels that change between `select`s. Every overlap of a summary with many
// summary sets (Profile::overlaps) equals the interface's definition (SummarySet's generic
// overlap, cum(s) + total_cum(S) - total_cum(S ∪ {s}) from the backend's unions; the property
// test of tree_profile_property_test.cpp checks those against the naive set definitions) while
// sets are grown, replaced, added and dropped between the questions: the merge of the sets' tops
// that a summary of many subtrees makes is then renumbered and remerged with the changed sets'
// tops, and each entry's cum must move with it.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "bn/calltree/tree_profile.h"
#include "random_stacks.h"
#include "stack_tree.h"
#include "wide_sums.h"

using namespace bn::calltree;
using bn::iface::Summary;
using bn::iface::SummarySet;

namespace {

using testing::pick;

// The methods and some of their extensions at either end (sequences, whose regions hold single
// nodes beside subtrees).
std::vector<Summary> summaries_of(TreeProfile& p, std::mt19937& rng) {
  std::vector<Summary> out = p.initial_summaries();
  for (int k = 0; k < 12 && !out.empty(); ++k) {
    const Summary s = pick(rng, out);
    const bool top = rng() % 2 == 0;
    const auto names = top ? p.top_extensions(s) : p.bottom_extensions(s);
    if (names.empty()) continue;
    const std::string m(names[std::uniform_int_distribution<std::size_t>(0, names.size() - 1)(rng)]);
    if (const auto next = top ? p.extend_top(s, m) : p.extend_bottom(s, m)) out.push_back(*next);
  }
  return out;
}

// The summary of most subtrees: asked first after a change, it makes or remakes the merge.
Summary widest(TreeProfile& p, const std::vector<Summary>& summaries) {
  return *std::max_element(summaries.begin(), summaries.end(),
                           [&](Summary a, Summary b) { return p.roots(a).size() < p.roots(b).size(); });
}

struct Labels {
  std::vector<std::vector<Summary>> members;
  std::vector<std::unique_ptr<SummarySet>> sets;

  std::vector<SummarySet*> asked() const {
    std::vector<SummarySet*> out;
    for (const auto& set : sets) out.push_back(set.get());
    return out;
  }
};

std::vector<Summary> some_of(std::mt19937& rng, const std::vector<Summary>& summaries) {
  std::vector<Summary> S;
  for (int i = std::uniform_int_distribution<int>(1, 5)(rng); i > 0; --i) S.push_back(pick(rng, summaries));
  return S;
}

// One change, as `label` and `unlabel` make them: a label gains a summary (its set measured from
// the one before), is measured afresh, or is removed, or a label is added.
void change(TreeProfile& p, std::mt19937& rng, const std::vector<Summary>& summaries, Labels& labels) {
  const int kind = std::uniform_int_distribution<int>(0, 3)(rng);
  const std::size_t i = std::uniform_int_distribution<std::size_t>(0, labels.sets.size() - 1)(rng);
  if (kind == 0) {
    labels.members[i].push_back(pick(rng, summaries));
    labels.sets[i] = p.summary_set_from(*labels.sets[i], labels.members[i]);
  } else if (kind == 1) {
    labels.members[i] = some_of(rng, summaries);
    labels.sets[i] = p.summary_set(labels.members[i]);
  } else if (kind == 2 && labels.sets.size() > 1) {
    labels.members.erase(labels.members.begin() + static_cast<std::ptrdiff_t>(i));
    labels.sets.erase(labels.sets.begin() + static_cast<std::ptrdiff_t>(i));
  } else {
    labels.members.push_back(some_of(rng, summaries));
    labels.sets.push_back(p.summary_set(labels.members.back()));
  }
}

void check_overlaps(TreeProfile& p, Summary s, const Labels& labels) {
  const std::vector<SummarySet*> asked = labels.asked();
  const std::vector<bn::iface::Overlap> got = p.overlaps(s, asked);
  REQUIRE(got.size() == asked.size());
  for (std::size_t i = 0; i < asked.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == asked[i]->SummarySet::overlap(s));
  }
}

void run_case(std::mt19937& rng, const testing::RandomCase& rc) {
  const CallTree tree = testing::tree_from_stacks(rc.stacks);
  TreeProfile p(tree);
  const std::vector<Summary> summaries = summaries_of(p, rng);
  if (summaries.empty()) return;
  Labels labels;
  for (int k = std::uniform_int_distribution<int>(1, 12)(rng); k > 0; --k) {
    labels.members.push_back(some_of(rng, summaries));
    labels.sets.push_back(p.summary_set(labels.members.back()));
  }
  const Summary wide = widest(p, summaries);
  for (int step = 0; step < 10; ++step) {
    check_overlaps(p, wide, labels);
    for (int k = 0; k < 4; ++k) check_overlaps(p, pick(rng, summaries), labels);
    for (int k = std::uniform_int_distribution<int>(1, 2)(rng); k > 0; --k) change(p, rng, summaries, labels);
    // The order of the labels changes too (a label added sorts among the others by name).
    if (rng() % 4 == 0) {
      const std::size_t a = rng() % labels.sets.size(), b = rng() % labels.sets.size();
      std::swap(labels.sets[a], labels.sets[b]);
      std::swap(labels.members[a], labels.members[b]);
    }
  }
}

}  // namespace

TEST_CASE("overlaps with labels that change between questions equal the interface's definition") {
  std::mt19937 rng(4242);
  for (int i = 0; i < 300; ++i) {
    CAPTURE(i);
    run_case(rng, testing::random_case(rng, i % 10 == 0));
  }
}

// The merge keeps its checkpoints' sums in 32 bits when every one fits: costs of up to 99 * 2^26
// make the sums of some merges leave 32 bits and not others', and a label changed may turn a
// merge of narrow sums into one of wide sums or back.
TEST_CASE("overlaps with labels of costs past 32 bits equal the interface's definition") {
  std::mt19937 rng(3232);
  for (int i = 0; i < 200; ++i) {
    CAPTURE(i);
    run_case(rng, testing::random_case_scaled(rng, i % 10 == 0, 20 + 2 * (i % 4)));
  }
}

// A summary of a top per 64 of the merge's entries or more is swept as a walk of the entries in
// order, one of fewer tops by the search of the indexed nodes (merged_tops.cpp). Small trees
// make the first the usual case above: here many labels of large trees, asked about their
// summaries of fewest subtrees once the widest has made the merge, make the second usual too.
TEST_CASE("overlaps of summaries of few subtrees among many labels equal the interface's definition") {
  std::mt19937 rng(6464);
  for (int i = 0; i < 300; ++i) {
    CAPTURE(i);
    const CallTree tree = testing::tree_from_stacks(testing::random_case(rng, i % 4 != 0).stacks);
    TreeProfile p(tree);
    std::vector<Summary> summaries = summaries_of(p, rng);
    if (summaries.empty()) continue;
    Labels labels;
    for (int k = std::uniform_int_distribution<int>(20, 50)(rng); k > 0; --k) {
      labels.members.push_back(some_of(rng, summaries));
      labels.sets.push_back(p.summary_set(labels.members.back()));
    }
    check_overlaps(p, widest(p, summaries), labels);
    std::stable_sort(summaries.begin(), summaries.end(),
                     [&](Summary a, Summary b) { return p.roots(a).size() < p.roots(b).size(); });
    for (std::size_t k = 0; k < std::min<std::size_t>(summaries.size(), 8); ++k)
      check_overlaps(p, summaries[k], labels);
  }
}
