// autolabel's choice among its candidates (autolabel_candidates.cpp): the heaviest set of at most
// N pairwise non-overlapping candidates. Choosing by cum alone falls into the trap of a heavy
// summary that overlaps two lighter, disjoint ones covering more together, so the greedy set is
// only the starting point of a branch-and-bound search over the candidates in weight order.
#include "bn/search/autolabel.h"

#include <algorithm>
#include <cstdint>

#include "bn/search/autolabel_overlaps.h"

namespace bn::search {
namespace {

using Candidate = AutolabelCandidate;

// Nodes of the search tree visited at most; beyond it the best set found so far is proposed
// (AutolabelResult::best_of_candidates says which). Deterministic, unlike a time limit.
constexpr std::size_t kSearchSteps = 200'000;

// Branch and bound for the heaviest set of pairwise disjoint candidates (seed 004 sec. 3: the
// bottlenecks of a set explain separate costs).
class DisjointSetSearch {
 public:
  DisjointSetSearch(AutolabelOverlaps& overlaps, const std::vector<Candidate>& candidates, std::size_t count)
      : overlaps_(overlaps), candidates_(candidates), count_(count), pair_(candidates.size() * candidates.size(), 0) {}

  // The heaviest set found, as indices into the candidates in weight order.
  std::vector<std::size_t> run() {
    greedy();
    explore(0, 0);
    return best_;
  }
  bool finished() const { return steps_ <= kSearchSteps; }

  // cum_overlap (seed 004 sec. 2.1) of two candidates is 0; asked once per pair.
  bool disjoint(std::size_t i, std::size_t j) {
    std::int8_t& known = pair_[std::min(i, j) * candidates_.size() + std::max(i, j)];
    if (known == 0) known = overlaps_.cum(candidates_[i].summary, candidates_[j].summary) == 0 ? 1 : -1;
    return known > 0;
  }

 private:
  bool fits(std::size_t i) {
    for (std::size_t j : chosen_)
      if (!disjoint(i, j)) return false;
    return true;
  }

  // The greedy set: each candidate, heaviest first, taken when it overlaps none taken.
  void greedy() {
    for (std::size_t i = 0; i < candidates_.size() && chosen_.size() < count_; ++i)
      if (fits(i)) {
        chosen_.push_back(i);
        best_weight_ += candidates_[i].weight;
      }
    best_ = chosen_;
    chosen_.clear();
  }

  // Sets that keep the choices made for candidates before i. Candidates are in weight order, so
  // no completion weighs more than the heaviest that still fit added: a branch that cannot
  // beat the best set strictly (heavier, or as heavy with fewer proposals: the same cost
  // explained by fewer bottlenecks) is cut, which keeps the first best set found (deterministic).
  void explore(std::size_t i, iface::Amount weight) {
    if (weight > best_weight_ || (weight == best_weight_ && chosen_.size() < best_.size())) {
      best_weight_ = weight;
      best_ = chosen_;
    }
    if (i == candidates_.size() || chosen_.size() == count_ || ++steps_ > kSearchSteps) return;
    // The heaviest candidates from i on that overlap none chosen, as many as still fit: no
    // completion weighs more.
    iface::Amount bound = weight;
    for (std::size_t j = i, room = count_ - chosen_.size(); j < candidates_.size() && room > 0; ++j)
      if (fits(j)) {
        bound += candidates_[j].weight;
        --room;
      }
    // Only a heavier set, or one as heavy with fewer proposals, replaces the best.
    if (bound < best_weight_ || (bound == best_weight_ && chosen_.size() + 1 >= best_.size())) return;
    if (fits(i)) {
      chosen_.push_back(i);
      explore(i + 1, weight + candidates_[i].weight);
      chosen_.pop_back();
    }
    explore(i + 1, weight);
  }

  AutolabelOverlaps& overlaps_;
  const std::vector<Candidate>& candidates_;
  std::size_t count_;
  std::vector<std::int8_t> pair_;  // by (i, j), i < j: 0 unknown, 1 disjoint, -1 overlapping
  std::vector<std::size_t> chosen_, best_;
  iface::Amount best_weight_ = 0;
  std::size_t steps_ = 0;
};

}  // namespace

iface::Amount autolabel_weight(iface::Profile& profile, iface::Summary s, int direction) {
  const iface::Amount cum = profile.cum_of(s);
  if (direction != 0) return direction < 0 ? -cum : cum;
  const iface::Amount total = profile.total();
  if (total == 0) return iface::abs_amount(cum);
  return total < 0 ? -cum : cum;
}

AutolabelResult autolabel(iface::Profile& profile, const AutolabelOptions& options, const AutolabelReached& reached) {
  const AutolabelCandidates found = autolabel_candidates(profile, options, reached);
  AutolabelResult out;
  out.candidates = found.list.size();
  out.skipped = found.skipped;
  if (options.count == 0) return out;

  DisjointSetSearch search(*found.overlaps, found.list, options.count);
  const std::vector<std::size_t> best = search.run();
  out.best_of_candidates = search.finished();
  std::vector<iface::Summary> so_far;
  std::vector<std::size_t> named;  // candidates passed over, each named at the first proposal it overlaps
  for (std::size_t i : best) {
    const Candidate& c = found.list[i];
    so_far.push_back(c.summary);
    AutolabelProposal proposal{c.summary, c.origin, profile.total_cum_of(so_far), std::nullopt};
    for (std::size_t j = 0; j < i && !proposal.instead_of; ++j)
      if (std::find(best.begin(), best.end(), j) == best.end() &&
          std::find(named.begin(), named.end(), j) == named.end() && !search.disjoint(i, j)) {
        proposal.instead_of = found.list[j].summary;
        named.push_back(j);
      }
    out.proposals.push_back(proposal);
  }
  return out;
}

AutolabelResult autolabel(iface::Profile& profile, const AutolabelOptions& options) {
  return autolabel(profile, options, autolabel_reached(profile, options));
}

}  // namespace bn::search
