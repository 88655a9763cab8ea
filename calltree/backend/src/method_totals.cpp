#include "bn/calltree/method_totals.h"

#include "narrow_sums.h"

namespace bn::calltree {

MethodTotals::MethodTotals(const CallTree& tree, double one_by_one_share)
    : tree_(tree), one_by_one_share_(one_by_one_share) {}

template <typename Sum>
bool MethodTotals::add(Tally<Sum>& t, NodeId n) const {
  bool fits = add_fits(t.base, tree_.base_cost(n));
  if (n < t.open_until) {
    t.nested = true;
  } else {
    fits &= add_fits(t.cum, tree_.cum_cost(n));
    t.open_until = tree_.subtree_end(n);
  }
  return fits;
}

template <typename Sum>
bool MethodTotals::add_up_all(std::vector<Tally<Sum>>& tallies) {
  bool fits = true;
  bool negative = false;
  auto visit = [&](NodeId n) {
    negative |= tree_.cost(n) < 0;
    fits &= add(tallies[tree_.method(n)], n);
  };
  // The records are read at random (5 MB at 10M nodes, beyond the core's caches) but the tree's
  // method column says which ones come next: fetching the record of the node kAhead places on
  // while this one is added hides most of the wait for memory.
  constexpr NodeId kAhead = 16;
  const auto nodes = static_cast<NodeId>(tree_.node_count());
  NodeId n = 1;
  for (; n + kAhead < nodes; ++n) {
    __builtin_prefetch(&tallies[tree_.method(n + kAhead)]);
    visit(n);
  }
  for (; n < nodes; ++n) visit(n);
  costs_never_negative_ = !negative;
  return fits;
}

void MethodTotals::figure_all() {
  narrow_.assign(tree_.method_count(), {});
  if (!add_up_all(narrow_)) {
    narrow_ = {};
    wide_.assign(tree_.method_count(), {});
    add_up_all(wide_);  // cannot overflow: 2^32 costs of 64 bits add up within 128
  }
  complete_ = true;
}

MethodTotals::Figures MethodTotals::operator[](MethodId m) {
  if (!complete_) {
    if (narrow_.empty()) narrow_.resize(tree_.method_count());
    if (!narrow_[m].figured) figure_one(m);
  }
  if (!wide_.empty()) return {wide_[m].base, wide_[m].cum, wide_[m].nested};
  const Tally<std::int64_t>& t = narrow_[m];
  return {t.base, t.cum, t.nested};
}

void MethodTotals::figure_one(MethodId m) {
  const std::span<const NodeId> nodes = tree_.nodes_of(m);
  one_by_one_nodes_ += nodes.size();
  if (++one_by_one_methods_ > kOneByOneMethods ||
      static_cast<double>(one_by_one_nodes_) > one_by_one_share_ * static_cast<double>(tree_.node_count())) {
    figure_all();
    return;
  }
  Tally<std::int64_t>& t = narrow_[m];
  bool fits = true;
  constexpr std::size_t kAhead = 8;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i + kAhead < nodes.size()) tree_.prefetch(nodes[i + kAhead]);
    fits &= add(t, nodes[i]);
  }
  t.figured = true;
  if (!fits) figure_all();
}

bool MethodTotals::occurs(MethodId m) {
  if (!complete_) figure_all();
  return (wide_.empty() ? narrow_[m].open_until : wide_[m].open_until) != 0;
}

bool MethodTotals::costs_never_negative() {
  if (!costs_never_negative_) {
    bool negative = false;
    const auto nodes = static_cast<NodeId>(tree_.node_count());
    for (NodeId n = 1; n < nodes; ++n) negative |= tree_.cost(n) < 0;
    costs_never_negative_ = !negative;
  }
  return *costs_never_negative_;
}

}  // namespace bn::calltree
