// The overlaps a session keeps for its labels (LabelMeasures) follow the labels through every
// change: each pair of labels, and each label's overlap with a summary, equals the sets measured
// afresh by the interface's definition (total_cum_of/total_base_of of unions), whether the pair
// was kept, measured with the changed label's other pairs, derived for a label that gained the
// summary shown last from its earlier pair and that summary's overlaps (grown_set_overlaps), or
// listed afresh in one pass when many labels changed (Profile::pair_overlaps).
#include "bn/search/label_measures.h"

#include <doctest/doctest.h>

#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "../calltree/random_stacks.h"
#include "bn/calltree/tree_profile.h"

using bn::iface::Overlap;
using bn::iface::Summary;
using bn::iface::SummarySet;

namespace {

using bn::calltree::testing::pick;

// The methods and some of their extensions: summaries whose regions nest and overlap.
std::vector<Summary> summaries_of(bn::calltree::TreeProfile& p) {
  std::vector<Summary> out = p.initial_summaries();
  const std::size_t methods = out.size();
  for (std::size_t i = 0; i < methods; ++i) {
    for (std::string_view m : p.bottom_extensions(out[i]))
      if (const auto longer = p.extend_bottom(out[i], m)) out.push_back(*longer);
    for (std::string_view m : p.top_extensions(out[i]))
      if (const auto longer = p.extend_top(out[i], m)) out.push_back(*longer);
  }
  return out;
}

// The overlap by the interface's definition, with nothing kept.
Overlap defined(bn::iface::Profile& p, const std::vector<Summary>& a, const std::vector<Summary>& b) {
  SummarySet first(p, a), second(p, b);
  return first.overlap(second);
}

// Each pair of labels is listed once, names in order, exactly when it overlaps, with its
// overlap by the definition.
void check_every_pair(bn::iface::Profile& p, bn::search::LabelMeasures& measures, const bn::search::LabelSet& labels) {
  const std::vector<bn::search::LabelMeasures::LabelPair>& pairs = measures.pairs(p, labels);
  std::size_t at = 0;
  for (auto a = labels.all().begin(); a != labels.all().end(); ++a)
    for (auto b = std::next(a); b != labels.all().end(); ++b) {
      CAPTURE(a->first);
      CAPTURE(b->first);
      const Overlap expected = defined(p, a->second, b->second);
      const bool listed = at < pairs.size() && pairs[at].first == a->first && pairs[at].second == b->first;
      CHECK(listed == (expected != Overlap{}));
      if (listed) CHECK(pairs[at++].overlap == expected);
    }
  CHECK(at == pairs.size());
}

}  // namespace

TEST_CASE("each pair of labels a session keeps equals the two label sets measured afresh, through every change") {
  std::mt19937 rng(20041104);
  for (int round = 0; round < 150; ++round) {
    CAPTURE(round);
    const bn::calltree::testing::RandomCase rc = bn::calltree::testing::random_case(rng, round % 10 == 0);
    const bn::calltree::CallTree tree = bn::calltree::testing::tree_from_stacks(rc.stacks);
    bn::calltree::TreeProfile p(tree);
    const std::vector<Summary> pool = summaries_of(p);
    // More labels than a listing measures one by one after a change, at times.
    const std::vector<std::string> names = round % 3 == 0
                                               ? std::vector<std::string>{"A", "B", "C", "D", "E", "F", "G", "H"}
                                               : std::vector<std::string>{"A", "B", "C", "D"};
    bn::search::LabelSet labels;
    bn::search::LabelMeasures measures;
    for (const std::string& name : names) labels.add(name, pick(rng, pool));
    check_every_pair(p, measures, labels);
    for (int step = 0; step < 12; ++step) {
      CAPTURE(step);
      const Summary s = pick(rng, pool);
      const std::string& name = pick(rng, names);
      const int op = std::uniform_int_distribution<int>(0, 6)(rng);
      // As `path` or `select` then `label` do (mostly), or a label gaining a summary not shown,
      // two labels changed at once, a summary taken off.
      if (op <= 2) {
        const std::vector<Overlap> shown = measures.with(p, labels, s);
        std::size_t i = 0;
        for (const auto& entry : labels.all()) CHECK(shown[i++] == defined(p, {s}, entry.second));
      }
      if (op <= 3) labels.add(name, s);
      if (op == 3) labels.add(pick(rng, names), pick(rng, pool));
      if (op == 4) labels.remove(name, pick(rng, labels.all().count(name) ? labels.all().at(name) : pool));
      if (op == 5) measures.with(p, labels, s);  // shown, not labelled: the next `labels` measures
      if (op == 6)                               // a `load`: every label changes
        for (const std::string& each : names) labels.add(each, pick(rng, pool));
      // `labels` after most changes; sometimes a second change first.
      if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) check_every_pair(p, measures, labels);
    }
  }
}
